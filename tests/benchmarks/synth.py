"""Generator of realistic synthetic skills for benchmarks (oasis format, deterministic).

Each skill: a 100-300 character description, 3-8 trigger phrases and a 2-8 KB
markdown body with headings, lists, code and a link to a reference file.
"""

from __future__ import annotations

import os
import random

WORDS = (
    "review deploy test build refactor migrate database schema query index cache "
    "release changelog commit branch merge conflict lint format type check security "
    "audit secret token api endpoint request response latency memory profile trace "
    "log error exception retry timeout queue worker job schedule report metric alert "
    "dashboard document guide tutorial example template config setting feature flag "
    "rollout rollback backup restore archive compress upload download parse validate"
).split()
VERBS = "check write fix explain summarize generate review plan debug optimize".split()


def _vocabulary() -> list[str]:
    """About 3,600 made-up words: real descriptions draw on thousands of words."""
    syl = "ka lo mi ne ru sa ti vo xe zu ba de fi go hu".split()
    return [a + b for a in syl for b in syl] + [a + b + c for a in syl for b in syl for c in syl]


VOCABULARY = _vocabulary()


def word(rng: random.Random) -> str:
    """Half common technical words, half a Zipf-like draw from the large vocabulary."""
    if rng.random() < 0.5:
        return rng.choice(WORDS)
    rank = min(int(rng.paretovariate(1.1)) - 1, len(VOCABULARY) - 1)
    return VOCABULARY[(rank * 7919) % len(VOCABULARY)]


def _sentence(rng: random.Random, low: int, high: int) -> str:
    words = [word(rng) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + "."


def _description(rng: random.Random) -> str:
    text = ""
    target = rng.randint(100, 300)
    while len(text) < target:
        text += _sentence(rng, 6, 14) + " "
    return text[:target].rstrip() + "."


def _body(rng: random.Random) -> str:
    target = rng.randint(2048, 8192)
    parts = ["# Instructions", ""]
    size = 0
    step = 0
    while size < target:
        step += 1
        block = rng.choice(("para", "list", "code", "heading"))
        if block == "para":
            chunk = " ".join(_sentence(rng, 8, 20) for _ in range(rng.randint(2, 5)))
        elif block == "list":
            chunk = "\n".join(f"{i}. {_sentence(rng, 5, 12)}" for i in range(1, rng.randint(3, 7)))
        elif block == "code":
            chunk = (
                "```bash\n"
                + "\n".join(
                    f"{rng.choice(VERBS)} --{rng.choice(WORDS)} {rng.choice(WORDS)}"
                    for _ in range(rng.randint(2, 6))
                )
                + "\n```"
            )
        else:
            chunk = f"## Step {step}: {rng.choice(VERBS)} the {rng.choice(WORDS)}"
        parts += [chunk, ""]
        size += len(chunk) + 2
    parts.append("See [the reference](references/guide.md) for details.")
    return "\n".join(parts) + "\n"


SYLLABLES = "ka lo mi ne ru sa ti vo xe zu ba de fi go hu".split()


def _topic(index: int) -> str:
    """A made-up word unique to one skill, as real triggers name their own subject."""
    parts = []
    value = index + 1
    while value:
        value, digit = divmod(value, len(SYLLABLES))
        parts.append(SYLLABLES[digit])
    return "".join(parts)


def make_skill(rng: random.Random, index: int) -> tuple[str, str]:
    topic = _topic(index)
    ident = f"skill-{index:05d}-{topic}"
    # Each phrase names the skill's own subject; one in ten is a generic phrase
    # that other skills share, as happens in real folders.
    triggers = {
        f"{rng.choice(VERBS)} {topic}" + (f" {rng.choice(WORDS)}" if rng.random() < 0.6 else "")
        for _ in range(rng.randint(3, 8))
    }
    if rng.random() < 0.1:
        triggers.add(f"{rng.choice(VERBS)} {rng.choice(WORDS)}")
    lines = [
        "---",
        f"id: {ident}",
        f"name: {ident.replace('-', ' ').title()}",
        f"description: {_description(rng)}",
        "triggers:",
        *(f"  - {t}" for t in sorted(triggers)),
        f"priority: {rng.randint(1, 100)}",
        "---",
        "",
    ]
    return ident, "\n".join(lines) + _body(rng)


def generate(target: str, count: int, seed: int = 7) -> str:
    """Write `count` skills under `target`/key_skills; returns that root."""
    rng = random.Random(seed)
    root = os.path.join(target, "key_skills")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(target, "skillstudio.yaml"), "w", encoding="utf-8") as fh:
        fh.write("profile: oasis\nroots: [key_skills]\n")
    for index in range(count):
        ident, text = make_skill(rng, index)
        folder = os.path.join(root, ident)
        os.makedirs(os.path.join(folder, "references"), exist_ok=True)
        with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as fh:
            fh.write(text)
        with open(os.path.join(folder, "references", "guide.md"), "w", encoding="utf-8") as fh:
            fh.write("# Guide\n")
    return root


# ---------------------------------------------------------------- adversarial overlap
POSTING_CAP = 100  # core/ranking/overlap.py's RARE_MAX: a word in more skills pairs nobody


def _made_up(number: int) -> str:
    """A made-up word per number, distinct after stemming (`q` + syllables + `x`)."""
    parts = []
    value = number + 1
    while value:
        value, digit = divmod(value, len(SYLLABLES))
        parts.append(SYLLABLES[digit])
    return "q" + "".join(parts) + "x"


def adversarial_descriptions(
    count: int, words: int = 24, share: int = POSTING_CAP, seed: int = 25
) -> list[str]:
    """Descriptions in which every word is in exactly `share` skills (the posting cap
    of overlap's candidate search), and two skills rarely share more than one word:
    each of the `words` positions deals the skills into groups of `share` in its own
    random order (issue 25, item 7: every word pairs `share` skills, so the candidate
    pairs are count × words × (share - 1) / 2 and almost none of them compete)."""
    rng = random.Random(seed)
    texts: list[list[str]] = [[] for _ in range(count)]
    groups = -(-count // share)
    for position in range(words):
        order = list(range(count))
        rng.shuffle(order)
        for rank, skill in enumerate(order):
            texts[skill].append(_made_up(position * groups + rank // share))
    return [" ".join(text).capitalize() + "." for text in texts]


def generate_adversarial(target: str, count: int, words: int = 24) -> str:
    """Write `count` agentskills skills with `adversarial_descriptions` under
    `target`/skills (a project whose profile lets the model choose); returns that root."""
    return _plain_skills(target, "adversarial", adversarial_descriptions(count, words))


# Written for this project: one description that every skill of `generate_copies` has.
COPIED = (
    "Summarise a meeting transcript into decisions, owners and action items. "
    "Use when the user pastes meeting notes or asks what was agreed."
)


def generate_copies(target: str, count: int) -> str:
    """Write `count` agentskills skills that all have the description COPIED (issue
    25, item 6: copies of one description are the strongest overlap there is, and
    every word of them is in every skill) under `target`/skills; returns that root."""
    return _plain_skills(target, "copy", [COPIED] * count)


def _plain_skills(target: str, prefix: str, descriptions: list[str]) -> str:
    root = os.path.join(target, "skills")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(target, "skillstudio.yaml"), "w", encoding="utf-8") as fh:
        fh.write("profile: agentskills\nroots: [skills]\n")
    for index, description in enumerate(descriptions):
        name = f"{prefix}-{index:05d}"
        folder = os.path.join(root, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as fh:
            fh.write(f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nDo it.\n")
    return root
