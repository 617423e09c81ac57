"""Threads of the app: each thread and process, what it may touch, when the
registries change hands, and how results cross. The code keeps to this note
(tests/gui/infra/test_threads.py checks the rule that matters most: once the GUI thread
holds a skill, no other thread writes to it; tests/test_thread_note.py that every
place that starts a thread or a background job is in the list below).

Every thread and background job, one entry each: `module Owner: what runs; what it
may touch; how its results land`. Work of a widget goes through a LatestJob
(background.py: the newest asked lands, one at a time, nothing once its owner is
gone, progress as signal payloads); a widget that is not on screen puts its work
off with a CatchUp (deferred_until_shown.py) and does it once when shown.

- gui/infra/background.py LatestJob: QThreadPool runs of the jobs below; each job's
  `work()` only; its answer, its error as text and its progress cross as queued signals
  of a parentless relay.
- gui/infra/background.py answer_meanwhile: one thread per call for core work its
  caller waits for (MainWindow.open_path: the folder's projects resolved, a walk of
  every folder below it); what the work reads, nothing of the GUI thread's; the
  answer crosses as a queued signal of a parentless relay while the caller's event
  loop runs (no user input taken meanwhile).
- gui/models/skill_document.py SkillDocument: a large unsaved text's validation
  (Registry.rebuild_job, the parse copied); its own new Skill only; landed on the GUI
  thread, `Registry.install` puts it in.
- gui/editor/where_it_loads.py WhereItLoads: core/projects/agent_reach.py for the skill
  as on screen; reads the skill, stats files; the table is filled where it lands.
- gui/panels/suite_runner.py SuiteRunner: the suite's leaking cases (core/projects/
  suite_leaks.py with a LeakCheck of its own); reads the suite and a list of the active
  skills; the cases marked, and the verdict said again, where they land.
- gui/panels/problems_panel.py ProblemsPanel: the current skill's portability (8
  validations, as on screen or as saved); reads the skill or reads its file; the
  "content" line where it lands.
- gui/panels/workbench/headroom_view.py HeadroomView: the listing headroom of a
  `snapshot()`; reads the copy's skills; the line and the table where it lands.
- gui/panels/overlap_map.py OverlapMap: overlap pairs of a `snapshot()` with an index of
  its own; reads the copy's skills; the map where it lands (if its project is still
  chosen).
- gui/controllers/skill_views.py SkillViews: the description-overlap pairs and the
  listing-over-budget note of a `snapshot()` of each registry changed since its notes
  (after a scan or a refresh); reads the copies' skills; the notes, and Problems
  updated, where they land.
- gui/panels/live_panel.py LivePanel: core/live `execute` of a plan (its own threads
  send the requests); the plan, the answer cache's files, the network; progress as
  payloads (done, total, message), the report where it lands. Its second job, the
  connection test: core/live/probe.py's one tiny request; the network only; the
  result (model id, time, or the error) said in the status where it lands.
- gui/dialogs/suggest_dialog.py SuggestDialog: Suggest Requests…, core/projects/suggest.py's
  one request (core/live's client) and the reading of its drafts, checked for leaks
  against a LeakCheck of its own (of a list of the active skills taken at Send); the
  network and those skills, read; the drafts listed with checkboxes (or the error said)
  where they land.
- gui/dialogs/settings_dialog.py SettingsDialog: Test connection, core/live/probe.py's
  one tiny request to the chosen endpoint row (the key typed there or the stored
  one); the network only; the result said under the table where it lands.
- gui/panels/change_panel.py ChangePanel: File › Compare With…, core/projects/
  change_sides.py (git as subprocesses, a revision's copy in the cache folder, both
  trees read into registries of its own, no scan forks); the report where it lands.
- gui/panels/before_strip.py BeforeStrip: Try a Request's "Before (REV)": core/
  projects/before_ranking.py ranks the request on the comparison's own reading of the
  revision (its registries and indexes, read nowhere else); the strip where it lands,
  dropped when the request changes or the comparison goes.
- gui/infra/likely_jobs.py LikelyIndexes: a likely-candidates index of a list of active
  skills (one builder, the AppContext's: gui/models/app_context.py); reads them; where
  it lands, pointed at the registry and adopted by its open project, which keeps it
  current with `sync()`. Its second job: an adopted index's weights worked out again
  when a sync moved a snapped average (`LikelyIndex.weights_job`: a copy of its
  document counts; its entries and their skills read); put in where they land unless
  a skill was added or removed meanwhile. Its third frees the weights they replaced
  (their dict only).
- gui/controllers/scan_controller.py Scanning: a ScanThread per folder scan or profile
  switch (below); the registries given until `scanned`, then its own copies; `scanned`,
  `progressed` and `done` payloads.
- gui/infra/scan_thread.py reader_processes: the reader processes of a large scan
  (below); paths, offsets, the profile; plain tuples back to the scan thread.
- gui/editor/preview.py _Renderer: one thread renders every preview's markdown and reads
  its images; strings in, HTML and images out; the queued `rendered`. Its own thread: a
  render never waits behind an index build in the pool.
- gui/controllers/recovery_keeper.py _Writer: one thread writes the unsaved texts'
  recovery files, in order; the recovery folder only; failures as the queued `failed`.
  Its own thread: its writes keep their order and the window's close flushes them.
- gui/infra/file_watcher.py FileWatcher: watchdog's observer threads (changed paths into
  a set under a lock, a queued poke), the helper thread that sets the watches up
  (`limited`, `ready`) and one that stops a broken observer; no skill, no widget.
- gui/infra/pruned_watch.py make_observer: the file watcher's observer on Linux, whose
  emitter threads are watchdog's own, with no inotify watch on the trees a scan skips
  (`.git`, virtual environments, build output); the same paths and poke as above.

The rule. The GUI thread owns the open folder: the `AppContext` (context.py), its
projects and registries, every Skill in them, the documents, models and widgets.
Another thread is given what it needs when its work starts (strings, paths, a
`snapshot()` of a registry, a list of skills) and hands back new objects of its
own; they cross as the payload of a queued signal, never as attributes the GUI
thread reads off a thread object. A Skill the GUI thread holds is never written by
another thread. The GUI thread replaces a skill whose file it reads again (a
refresh, an edit) and changes the others in place only where the registry
resolves them against each other (status, winner, qualified name, cross-skill
notes) and, once, where a scan's gists are set; a worker reading a skill
meanwhile sees each attribute before or after (one reference each), and what it
built is brought up to date by `sync()`, which follows the registry's version.

The GUI thread, in time slices. Long work that must touch what the GUI thread owns
runs on it, a slice at a time with events between: the refresh after changes on
disk (refresh.py, 15 ms slices, each heavy step alone in its slice), the tier-2
listing (workbench/listing_writer.py, 12 ms), suite runs (suite_runner.py, 15 ms),
and the tree's and Problems' rows handed to their views a page at a time
(fetchMore). A panel behind another dock's tab catches up when shown (deferred_until_shown.py
`CatchUp`).
The window sets the interpreter's switch interval to 1 ms so that a worker holding
the lock delays a slice by at most that.

The scan thread (scan_thread.py `ScanThread`, run by scan_controller.py `Scanning`).
Given the registries of the folder opened (or of one project read as another profile);
they are its own until it emits `scanned`: it scans them (with the reader
processes) and builds the tree's and Problems' rows (`prepare`, values taken on
the GUI thread). Before emitting it takes what it reads later: a `snapshot()` of
each registry's active skills, for the match indexes, and a list of its skills,
whose gists it works out on stand-ins of its own (a Skill with the path, size,
time and body offset, nothing else). `scanned(ScanRead)` hands the
registries over: `Scanning` installs them in the context and the views show
them. From then on the thread reads only its copies (the skills they share it
reads, never writes) and writes only its own objects: the gists, worked out on
the stand-ins, and the match indexes. It waits for the GUI thread's
`ScanRead.resume()` (the first layout) before that work. Its results
cross as `done(ScanDone)`: ok, the match indexes (pointed at the real registries,
brought up to date on the GUI thread with `sync()`), the gists as (skill, gist)
pairs, what failed, how much the reader processes read. `Scanning` sets the gists
on the GUI thread, then emits `landed` (or `rescanned` for a profile switch, whose
registry enters the context only then): the context announces the projects to the
panels (`AppContext.announce`), and only then may a likely index be built of them
(likely_jobs.py `LikelyIndexes.keep_only`),
so nothing ranks with a skill before its gist is in. `cancel()` stops it (a flag
and the resume event) and waits for it.

The reader processes (core/scanning/parallel.py `Workers`, started by the scan thread
for a large scan: at most 4, spawned, at nice 10). They are sent paths, offsets
and the profile, read files with the same bounded readers as the scan thread and
send back plain tuples (skill states, gists) that the scan thread turns into its
own objects. They share no memory with the app and are closed with the scan.

QThreadPool jobs (background.py `LatestJob`, the list above). A job gets what it
reads when it is asked: strings, a Skill as on screen (read, never written), a list
of skills or a `snapshot()`, taken on the GUI thread; it builds objects of its own
from them. Its answer (or the error, as text) and its progress cross through a
parentless relay QObject of the GUI thread as queued signals; the relay holds its
job by a weak reference, so an answer for a closed panel is dropped, and an answer
asked before a newer one is dropped too. A likely index or the overlap map's is
built with the cyclic collector held off; the GUI thread then points a likely
index at the registry and keeps it current with `sync()`.

The preview renderer (preview.py `_Renderer`: one thread for every preview). It is
given strings (the body, the palette's flag, the style sheet) and hands back HTML
as the queued `rendered(key, number, html)`; a newer request of a preview replaces
its pending one. It touches no widget and no skill.

The recovery writer (recovery_keeper.py `_Writer`: one thread). It is given the unsaved
text (a string) and the skill's path, writes or removes files in the recovery
folder only, in order (the newest request per skill wins), and reports a failure
as the queued `RecoveryKeeper.failed(text)`. Closing the window flushes it.

The file watcher's threads (file_watcher.py, watchdog). watchdog's observer and
emitter threads call the handler, which only adds the changed paths to a set under
a lock and pokes the GUI thread (a queued signal); there a debounce timer takes
the set and emits one `skills_changed(paths)` per window. The watches are set up
on a helper thread (about 1 s at 10,000 skills), which reports what it cannot
watch as the queued `limited(text)`; the GUI thread uses the observer it made
only after its `ready` event is set or the helper is joined. The temporary files
of the app's own saves are left out (`TEMP_PREFIX`), and so is git's own `.git`
(`in_git`); the save itself arrives as a move onto the SKILL.md, and its tab sees
that the file is what it saved. The refresh those changes start runs in slices
with events between them: what it took at its start (the open tabs, the skills
a walk passed) may have changed when it goes on, so it looks again (a tab closed
meanwhile is left alone; a skill a tab's validation put in stays listed).
"""

from __future__ import annotations

from ...core.scanning.registry import Registry


def snapshot(registry: Registry) -> Registry:
    """A registry holding `registry`'s active skills as they are now, for work on
    another thread: the dict is the copy's own (the GUI thread may change the
    original's meanwhile), the skills are shared and only read there. Its version
    is the original's, so that an index built from it and then pointed at the
    original catches up with `sync()` on what changed meanwhile."""
    copy = Registry(registry.profile, [], gists=registry.gists)
    copy.active = dict(registry.active)
    copy.version = registry.version
    return copy
