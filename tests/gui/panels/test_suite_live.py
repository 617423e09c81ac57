"""Tests of Suites › Ask a model (gui/panels/suite_live.py; issue 37): the suite shown
put to a model (a loopback fake server), each case judged by the model's picks, and the
estimate's agreement with the model per band after the run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QTableWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.stats import BANDS, NONE, agreement
from skillstudio.core.live.templates import encode_template
from skillstudio.core.live.turns import turn_rates
from skillstudio.core.projects.eval_cases import eval_cases
from skillstudio.gui.panels.suite_live import TURNS_COLUMN
from skillstudio.gui.window.main_window import MainWindow

from ...live_fake import FakeModel, turn_of
from ...test_live_templates import captured_body, captured_template
from ..parts import runner_on


def cells(table: QTableWidget) -> list[list[str]]:
    rows = []
    for r in range(table.rowCount()):
        items = [table.item(r, c) for c in range(table.columnCount())]
        rows.append([item.text() if item is not None else "" for item in items])
    return rows


def test_a_suite_is_asked_and_the_bands_agreement_shown(
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    suite = samples / "claude-code/suites/claude-code.yaml"
    runner = runner_on(window, suite, qtbot)  # the offline run hands the panel its cases
    panel = window.suite_live
    panel.cache = AnswerCache(str(tmp_path / "cache"))
    assert runner.suite is not None and runner.registry is not None
    chosen = eval_cases(runner.suite.cases, runner.registry, None, suite.name)
    assert [c.query for c in panel.cases] == [c.query for c in chosen.judged]  # eval's cases
    assert chosen.not_judged  # the suite's `expect: none` cases are not put to the model
    assert panel.bands.isHidden() and panel.table.isHidden()  # nothing asked yet
    with FakeModel([("text", "I would look at the diff first.")]) as fake:
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(3)
        panel.ask()
        assert fake.received == [] and panel.status.text().startswith("About to send")
        with qtbot.waitSignal(panel.finished, timeout=30_000):
            panel.send()
        asked = len(fake.received)
    report = panel.report
    assert report is not None
    asks = sum(item.asks for item in report.plan.items)
    assert asked == asks * 3 and 0 < asks < len(report.plan.items)  # /name: the harness's
    rule = report.plan.settings.rule
    rows = cells(panel.table)
    assert [row[0] for row in rows] == [r.case.query for r in report.results]
    assert [row[3] for row in rows] == [r.verdict(rule).state for r in report.results]
    passed, failed, inconclusive = report.counts()
    assert f"{passed} passed, {failed} failed, {inconclusive} inconclusive" in panel.status.text()
    # the bands: as core's agreement says, a row each, none last
    data = agreement(report.results)
    bands = cells(panel.bands)
    assert [row[0] for row in bands] == [*BANDS, NONE]
    for row, band in zip(bands, (*BANDS, NONE), strict=True):
        assert row[1:3] == [
            f"{data['bands'][band]['runs']:,}",
            f"{data['bands'][band]['picked']:,}",
        ]
    assert data["bands"][NONE]["picked"] == asked  # every answer in words picked no skill
    assert bands[-1][3].startswith("100 %")
    assert not panel.bands.isHidden() and "estimate's likely first" in panel.top1.text()
    # another suite chosen: what was shown goes
    runner.suite_box.currentIndexChanged.emit(0)
    assert panel.table.isHidden() and panel.bands.isHidden() and panel.report is None
    assert panel.cases == []


def test_settings_endpoints_reach_the_suites_tab_too(window: MainWindow) -> None:
    from skillstudio.gui.infra.settings_store import Endpoint

    window.app_settings.set_endpoints([Endpoint("http://localhost:9/v1", "openai", "m1")])
    window._apply_settings()
    live = window.suite_live
    assert live.endpoint.currentText() == "http://localhost:9/v1" and live.model.text() == "m1"


def test_a_suite_is_asked_as_eval_asks_with_turns_and_a_captured_template(
    window: MainWindow, samples: Path, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Suites › Ask a model takes Request as and turns as Try a Request's does: the
    captured template's body goes for every case, and each case's hits at the first
    turn and at any turn are told apart (the verdict counts any turn, as eval's)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    saved = tmp_path / "config" / "skillstudio" / "templates" / "claude-code.json"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(encode_template(captured_template()))
    suite = samples / "claude-code/suites/claude-code.yaml"
    runner_on(window, suite, qtbot)
    panel = window.suite_live
    panel.cache = AnswerCache(str(tmp_path / "cache"))
    assert panel.fields.request_as.currentData() == "claude-code"  # eval's default
    column = TURNS_COLUMN

    def by_turn(body: dict[str, Any]) -> tuple[Any, ...]:
        return ("tool", "Bash", {"command": "ls"}) if turn_of(body) == 1 else ("text", "done")

    with FakeModel([by_turn]) as fake:
        panel.set_endpoint(fake.url, "test-model", "anthropic")
        panel.runs.setValue(3)
        panel.turns.setValue(2)
        panel.ask()
        with qtbot.waitSignal(panel.finished, timeout=30_000):
            panel.send()
        bodies = [json.loads(raw) for _, _, raw in fake.received]
    firsts = [b for b in bodies if turn_of(b) == 1]
    assert firsts and all(b["system"] == captured_body()["system"] for b in firsts)
    assert len(bodies) == 2 * len(firsts)  # every run took its second turn
    report = panel.report
    assert report is not None and report.plan.settings.turns == 2
    assert not panel.table.isColumnHidden(column)
    rows = cells(panel.table)
    for row, result in zip(rows, report.results, strict=True):
        rates = turn_rates(result)
        first, anywhere = rates["first_turn"], rates["any_turn"]
        want = f"{first['hits']}/{first['answered']} · {anywhere['hits']}/{anywhere['answered']}"
        assert row[column] == want
    assert "up to 2 turns a run), asked as: captured claude-code 2.1.239" in panel.status.text()
