"""The kernel's side of the live link (issue 19), with the front end's messages simulated.

The front end sets ``attached`` and sends ``frontend_state = {changes, seq, session, moves}``; the
kernel answers ``kernel_state = {state, acks, refused}``. Checked here: while attached the
kernel writes none of the marks, tables and control values the front end owns (every trait
change of them is recorded), a refused move goes to the banner and the last good state is sent
back, each front end's seq is counted on its own and a move changes only its keys, a trait set
from Python produces one ``kernel_state`` with the last seq taken from each front end, and an
export of an attached widget carries the marks the Python model computes (not the kernel's
stale copies) and no link model.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import costwidget as cw
from costwidget.model import probability_cost
from costwidget.widget.live.frontend_link import BUNDLE

pytestmark = pytest.mark.skipif(not BUNDLE.exists(), reason="js not built (npm run build in js/)")


@pytest.fixture
def w():
    a = cw.Classifier.from_scores(
        [0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.9, 0.6], name="a"
    )
    b = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="b")
    widget = cw.CostWidget([a, b], p_pos=0.3)
    yield widget
    widget.close()


def _owned(w):
    op, con, rd = w.operating_tool, w.constraint_tool, w.readout_view
    return [
        op.iso_lines,
        op.chosen,
        op.operating_line,
        op.nec_points,
        op.handle,
        op.pcf,
        op.ratio_text,
        op.p_pos,
        op.p_pos_value,
        op.cost_fn,
        op.cost_fp,
        op.log_ratio,
        con.roc_line,
        con.roc_points,
        con.cost_lines,
        con.message,
        con.max_fpr,
        con.capacity,
        con.capacity_value,
        con.constraint,
        con.n_pos,
        con.n_neg,
        rd.widget,
        rd.constrained_widget,
    ]


def _record(widgets_):
    changes = []
    for widget in widgets_:
        widget.observe(
            lambda ch, widget=widget: changes.append((type(widget).__name__, ch["name"])),
            names=[n for n in widget.keys if not n.startswith("_")],
        )
    return changes


def test_attached_kernel_writes_no_owned_mark_table_or_control(w):
    link = w.frontend_link
    link.model.attached = True
    changes = _record(_owned(w))
    link.model.frontend_state = {"changes": dict(p_pos=0.6, cost_fn=2.0), "session": "s1", "seq": 1}
    w.p_pos = 0.25
    w.update(constraint="neyman_pearson", max_fpr=0.2)
    link.model.frontend_state = {
        "changes": dict(constraint="workforce", capacity=3.0),
        "session": "s1",
        "seq": 2,
    }
    assert changes == []
    # ... while the Python state, the readout and the constrained points follow.
    assert (w.constraint, w.capacity, w.p_pos, w.cost_fn) == ("workforce", 3.0, 0.25, 2.0)
    pcf = probability_cost(0.25, 2.0, 1.0)
    assert w.readout.loc["b", "nec"] == pytest.approx(w.classifiers[1].best(pcf).nec, abs=1e-15)
    assert set(w.constrained) == {"a", "b"}


def test_not_attached_the_kernel_draws_as_before(w):
    changes = _record([w.operating_tool.operating_line])
    w.p_pos = 0.6
    assert ("Lines", "x") in changes
    assert list(w.operating_tool.operating_line.x) == [w.pcf, w.pcf]


def test_front_end_state_is_applied_and_acknowledged(w):
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.7, cost_fp=3.0), "session": "s1", "seq": 5}
    assert (w.p_pos, w.cost_fp) == (0.7, 3.0)
    reply = link.model.kernel_state
    assert reply["acks"] == {"s1": 5} and reply["refused"] is False
    assert reply["state"]["p_pos"] == 0.7 and reply["state"]["cost_fp"] == 3.0


def test_two_front_ends_interleaved_each_counted_and_acknowledged(w):
    """Two tabs on one widget, their moves interleaved as the kernel receives them: each
    session's seq is counted on its own, every move is taken, and every reply carries the last
    seq taken from each session (a tab whose moves are not all in it keeps them on top)."""
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.7), "session": "A", "seq": 5}
    link.model.frontend_state = {"changes": dict(cost_fn=2.0), "session": "B", "seq": 1}
    assert link.model.kernel_state["acks"] == {"A": 5, "B": 1}
    link.model.frontend_state = {"changes": dict(p_pos=0.6), "session": "A", "seq": 6}
    assert (w.p_pos, w.cost_fn) == (0.6, 2.0)  # B's cost stays: A sent only its p(+)
    assert link.model.kernel_state["acks"] == {"A": 6, "B": 1}
    # The same message again (an echo): taken once.
    w.p_pos = 0.2
    link.model.frontend_state = {"changes": dict(p_pos=0.6), "session": "A", "seq": 6}
    assert w.p_pos == 0.2


def test_a_python_set_during_a_drag_survives_the_next_move(w):
    """A drag sends p(+) only: ``w.constraint`` set from Python meanwhile is not undone."""
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.4), "session": "A", "seq": 1}
    w.constraint = "neyman_pearson"
    link.model.frontend_state = {"changes": dict(p_pos=0.45), "session": "A", "seq": 2}
    assert (w.constraint, w.p_pos) == ("neyman_pearson", 0.45)
    assert link.model.kernel_state["state"]["constraint"] == "neyman_pearson"


def test_moves_merged_by_ipywidgets_are_each_applied_once_in_order(w):
    """ipywidgets merges the saves made while a message is in flight: of quick moves only the
    newest ``frontend_state`` may arrive. It repeats every move not acknowledged (``moves``):
    the kernel applies those it has not taken, in order, each once; a refused one leaves the
    others applied."""
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.4), "session": "A", "seq": 1}
    moves = [
        {"seq": 1, "changes": dict(p_pos=0.4)},  # taken already: not applied again
        {"seq": 2, "changes": dict(cost_fn=3.0)},
        {"seq": 3, "changes": dict(p_pos=0.9, cost_fn=0.0, cost_fp=0.0)},  # refused
        {"seq": 4, "changes": dict(max_fpr=0.2)},
    ]
    w.p_pos = 0.3  # from Python after seq 1 was taken: a repeated seq 1 would undo it
    link.model.frontend_state = {
        "changes": moves[-1]["changes"],
        "seq": 4,
        "session": "A",
        "moves": moves,
    }
    assert (w.p_pos, w.cost_fn, w.cost_fp, w.max_fpr) == (0.3, 3.0, 1.0, 0.2)
    reply = link.model.kernel_state
    assert (reply["ack"], reply["acks"]["A"], reply["refused"]) == (4, 4, True)
    # An echo of an older message applies nothing (Python's later sets stay).
    w.update(cost_fn=5.0, max_fpr=0.5)
    link.model.frontend_state = {"changes": {}, "seq": 3, "session": "A", "moves": moves[:3]}
    link.model.frontend_state = {"changes": {}, "seq": 4, "session": "A", "moves": moves}
    assert (w.p_pos, w.cost_fn, w.max_fpr) == (0.3, 5.0, 0.5)


def test_one_kernel_state_per_python_update(w):
    """``w.update`` of three keys notifies three traits: the front ends get the state once."""
    link = w.frontend_link
    link.model.attached = True
    sent = []
    link.model.observe(lambda ch: sent.append(ch["new"]), names=["kernel_state"])
    w.update(p_pos=0.4, cost_fn=2.0, cost_fp=3.0)
    assert len(sent) == 1
    assert (sent[0]["state"]["p_pos"], sent[0]["state"]["cost_fn"]) == (0.4, 2.0)


def test_invalid_state_is_refused_and_last_good_state_replied(w):
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.4), "session": "s1", "seq": 1}
    link.model.frontend_state = {
        "changes": dict(p_pos=0.9, cost_fn=0.0, cost_fp=0.0),
        "session": "s1",
        "seq": 2,
    }
    reply = link.model.kernel_state
    assert reply["refused"] is True and reply["ack"] == 2
    assert (reply["state"]["p_pos"], reply["state"]["cost_fn"], reply["state"]["cost_fp"]) == (
        0.4,
        1.0,
        1.0,
    )
    assert (w.p_pos, w.cost_fn, w.cost_fp) == (0.4, 1.0, 1.0)
    assert "cost_fn and cost_fp are both 0" in w.errors.message
    # The next good state clears the banner.
    link.model.frontend_state = {"changes": dict(p_pos=0.5), "session": "s1", "seq": 3}
    assert w.errors.message == "" and w.p_pos == 0.5


def test_python_set_trait_sends_kernel_state_with_last_ack(w):
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.45), "session": "s1", "seq": 7}
    sent = []
    link.model.observe(lambda ch: sent.append(ch["new"]), names=["kernel_state"])
    w.p_pos = 0.3
    assert sent and sent[-1]["acks"] == {"s1": 7} and sent[-1]["state"]["p_pos"] == 0.3
    # A refused set from Python raises and the kernel_state sent last is the good state again.
    with pytest.raises(ValueError, match=r"cost_fn .* must be a finite number >= 0, got -1.0"):
        w.cost_fn = -1.0
    assert link.model.kernel_state["state"]["cost_fn"] == 1.0


def test_owned_control_observers_ignored_while_attached(w):
    link = w.frontend_link
    link.model.attached = True
    # The front end saves its own control values: the kernel's copies change, the state does not.
    w.operating_tool.p_pos.value = 0.8
    w.constraint_tool.max_fpr.value = 0.5
    assert w.p_pos == 0.3 and w.max_fpr == 0.1
    # Unowned controls still work.
    w.show_bands_box.value = False


def _embedded(html_text, model_id):
    m = re.search(
        r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', html_text, re.S
    )
    state = json.loads(m.group(1))["state"]
    return state, state.get(model_id)


def test_export_of_attached_widget_has_python_marks_and_no_link(w):
    link = w.frontend_link
    link.model.attached = True
    w.p_pos = 0.62  # the kernel's mark copies stay at 0.3's operating point
    assert list(w.operating_tool.operating_line.x) != [w.pcf, w.pcf]
    text = w.to_html(interactive=False)
    state, line = _embedded(text, w.operating_tool.operating_line.model_id)
    assert link.model.model_id not in state
    root = state[w.widget.model_id]["state"]
    assert f"IPY_MODEL_{link.model.model_id}" not in root["children"]
    import base64

    buf = next(b for b in line["buffers"] if b["path"][0] == "x")
    x = np.frombuffer(base64.b64decode(buf["data"]), dtype=line["state"]["x"]["dtype"])
    assert list(x) == [w.pcf, w.pcf]
    readout = state[w.readout_view.widget.model_id]["state"]["value"]
    import costwidget as cw
    from costwidget.widget.text.readout import readout_html

    rows = cw.decide(w.classifiers, p_pos=0.62, cost_fn=1.0, cost_fp=1.0).rows
    assert readout == readout_html(rows, dict(w.colors))


def test_a_new_front_end_session_counts_its_seq_from_one(w):
    link = w.frontend_link
    link.model.attached = True
    link.model.frontend_state = {"changes": dict(p_pos=0.7), "session": "s1", "seq": 40}
    # The page is reloaded: a new front end, whose first move is seq 1.
    link.model.frontend_state = {"changes": dict(p_pos=0.2), "session": "s2", "seq": 1}
    assert w.p_pos == 0.2
    assert link.model.kernel_state["acks"] == {"s1": 40, "s2": 1}


def test_export_of_attached_widget_shows_a_python_set_state_in_its_controls(w):
    link = w.frontend_link
    link.model.attached = True
    w.update(p_pos=0.62, cost_fn=3.0, constraint="neyman_pearson", max_fpr=0.25)
    # No front end echoed it: the kernel's copies of the controls are the old ones.
    assert w.operating_tool.p_pos_value.value == 0.3
    state, _ = _embedded(w.to_html(interactive=False), w.operating_tool.p_pos.model_id)
    value = lambda widget, key="value": state[widget.model_id]["state"][key]  # noqa: E731
    op, con = w.operating_tool, w.constraint_tool
    assert (value(op.p_pos), value(op.p_pos_value), value(op.cost_fn)) == (0.62, 0.62, 3.0)
    assert value(op.pcf) == f"PCF(+) = <b>{probability_cost(0.62, 3.0, 1.0):.4f}</b>"
    assert value(con.constraint, "index") == 1 and value(con.max_fpr) == 0.25
    assert value(con.neyman_pearson_box.layout, "display") is None
    assert value(con.workforce_box.layout, "display") == "none"


def test_a_refusal_in_the_page_reaches_the_banner_and_the_next_move_clears_it(w):
    """The page refuses p(+) = 2 typed in the field by itself (the kernel never gets that state):
    its message must still be shown in the widget's banner, escaped, not only in the console."""
    link = w.frontend_link
    link.model.attached = True
    link.model._handle_custom_msg(
        {"event": "refused", "message": "p_pos must lie in [0, 1], got 2 <b>"}, []
    )
    assert "p_pos must lie in [0, 1], got 2 &lt;b&gt;" in w.errors.message
    assert w.p_pos == 0.3
    link.model.frontend_state = {"changes": dict(p_pos=0.4), "session": "s1", "seq": 1}
    assert w.errors.message == "" and w.p_pos == 0.4


def test_a_state_sent_while_moves_apply_acknowledges_only_the_moves_it_holds(w, monkeypatch):
    """A band drawn from the background sends the state (``send_state``), possibly from another
    thread while a batch of moves applies. No state may acknowledge a move it does not hold:
    the page drops the acknowledged moves and draws the state, so it would draw an older one
    (a loaded browser run: acks 149 with the p(+) of ack 136, the line drawn back)."""
    import threading

    link = w.frontend_link
    link.model.attached = True
    sent = []
    link.model.observe(lambda ch: sent.append(ch["new"]), names=["kernel_state"])
    apply = link._apply

    def apply_while_a_band_arrives(changes):
        band = threading.Thread(target=link.send_state)
        band.start()
        band.join()
        apply(changes)

    monkeypatch.setattr(link, "_apply", apply_while_a_band_arrives)
    moves = [{"seq": k, "changes": {"p_pos": 0.3 + k / 100}} for k in (1, 2, 3)]
    link.model.frontend_state = {
        "changes": moves[-1]["changes"],
        "seq": 3,
        "session": "A",
        "moves": moves,
    }
    assert sent, "no state sent"
    for reply in sent:
        ack = reply["acks"].get("A", 0)
        assert reply["state"]["p_pos"] == pytest.approx(0.3 + ack / 100), reply
    assert sent[-1]["acks"]["A"] == 3 and w.p_pos == pytest.approx(0.33)
