"""The live link: while a front end is attached it draws the operating point, not the kernel.

`FrontendLink` puts a zero-size anywidget (`LinkModel`) in the widget's layout. Its ``_esm`` is
``costwidget/static/live-link.js`` (``js/src/live_link.mjs``), whose ``initialize`` binds the
widget's own control, mark and table models with the exported page's ``bindPage``. The
protocol (one writer per mark; the README's "How it works"):

* the front end sets ``attached``; from then on the kernel writes none of the marks, tables and
  control links the front end owns (`Context.frontend_draws` guards those writes in the components), and
  ignores the owned controls' own observers (their values still reach the kernel's copies);
* every user move arrives as ``frontend_state = {"changes", "seq", "session", "moves"}``: only
  the keys the move changed (a key set meanwhile from Python or from another view is left as it is),
  applied in one transaction (a refusal goes to the banner); seq counts from 1 in each front
  end, ``session`` names it (a reloaded page, a second tab); ``moves`` repeats every move not
  acknowledged yet, since ipywidgets merges quick saves and may deliver only the newest;
* every change of the kernel's state (a move taken or refused, a trait set from Python, a click
  in the cost pane) is sent as ``kernel_state = {"state", "acks", "attached", "session", "ack",
  "refused"}``, ``acks`` the last seq taken from each session: each front end draws that state
  with its own moves not yet taken on top, so every view converges to the kernel's state.

With no front end (scripts, tests, nbconvert) nothing is attached and the kernel draws all.

Per-case costs (`costwidget.frontend.contract`'s docstring): the link is made where the page
mirrors the widget (`page_mirrors`); under a Neyman-Pearson or workforce limit the kernel
decides (the limit counts cases the page does not hold), so `FrontendLink.attached` is False
meanwhile and the kernel draws every mark, table and control, while the page sends the moves
and draws nothing.
"""

from __future__ import annotations

import base64
import pathlib

import anywidget
import ipywidgets as widgets
import traitlets as t

from ...frontend.contract import STATE_KEYS
from ..output.page_spec import front_end_state, live_spec, page_mirrors

__all__ = ["FrontendLink", "LinkModel", "link_widget", "BUNDLE"]

#: The front end's module (built by js/build.mjs, shipped in the wheel).
BUNDLE = pathlib.Path(__file__).resolve().parents[2] / "static" / "live-link.js"


def link_widget(w):
    """The `FrontendLink` of a composed `CostWidget`, or None when the front-end module was not
    built (a source checkout without ``npm run build``: the kernel then draws everything), or
    for per-case costs the page does not mirror (cases that change sides, costs summed by an
    engine: `page_mirrors`), where the kernel draws everything."""
    if not page_mirrors(w):
        return None
    return FrontendLink(w) if BUNDLE.exists() else None


class LinkModel(anywidget.AnyWidget):
    """The link's model: the spec (sent once), the two state messages and ``attached``."""

    _esm = t.Unicode("").tag(sync=True)
    contract = t.Dict().tag(sync=True)
    roles = t.Dict().tag(sync=True)
    options = t.Dict().tag(sync=True)
    colors = t.Dict().tag(sync=True)
    initial_state = t.Dict().tag(sync=True)
    payload_header = t.Dict().tag(sync=True)
    # Binary: ipywidgets sends bytes as message buffers, never as JSON lists.
    payload_buffers = t.List(t.Bytes()).tag(sync=True)
    # Per-case costs: the units and floor of money per case (page_spec.per_case_spec), or None.
    per_case = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    root_class = t.Unicode().tag(sync=True)
    attached = t.Bool(False).tag(sync=True)
    frontend_state = t.Dict().tag(sync=True)
    kernel_state = t.Dict().tag(sync=True)


class FrontendLink:
    """Creates the link for a composed `CostWidget` ``w`` and speaks the kernel's side."""

    def __init__(self, w):
        self.w = w
        self._attached = False  # a front end took the link (`attached` says whether it draws)
        self.acks: dict = {}  # session -> the last seq taken from that front end
        self.session = None  # the front end whose move was taken last ...
        self.last_seq = 0  # ... and that move's seq
        self._applying = False
        self._last_sent = None
        spec = live_spec(w)
        self.model = LinkModel(
            _esm=BUNDLE.read_text(encoding="utf-8"),
            contract=spec["contract"],
            roles=spec["roles"],
            options=spec["options"],
            colors=spec["colors"],
            initial_state=spec["state"],
            payload_header=spec["header"],
            payload_buffers=spec["buffers"],
            per_case=spec["per_case"],
            root_class=f"costwidget-link-{w.widget.model_id}",
            layout=widgets.Layout(width="0px", height="0px", margin="0px", overflow="hidden"),
        )
        w._ctx.frontend_link = self
        w.widget.add_class(self.model.root_class)
        w.widget.children = (*w.widget.children, self.model)
        self.model.observe(self._on_attached, names=["attached"])
        self.model.observe(self._on_frontend_state, names=["frontend_state"])
        self.model.on_msg(self._on_message)
        # Deferred while the transaction holds its lock (as a user's observer): sent once the
        # state is whole (an update of p(+) moves a following population after it).
        w.state.observe(w._tx.user_observer(self._on_state), names=list(STATE_KEYS))

    # ------------------------------------------------------------------ the protocol
    @property
    def attached(self) -> bool:
        """True while a front end draws (`Context.frontend_draws`): from its ``attached``
        on, except for per-case costs under a limit, which the kernel decides and draws."""
        if not self._attached:
            return False
        return self.w.per_case is None or self.w.state.constraint == "none"

    def _owned_bindings(self):
        return [*self.w.operating_tool.bindings, *self.w.constraint_tool.bindings]

    def _on_attached(self, change) -> None:
        if not change["new"] or self._attached:
            return
        self._attached = True
        # The front end links these controls now; their moves reach the kernel as
        # frontend_state, so their own observers would apply each move a second time, late.
        for binding in self._owned_bindings():
            binding.detach()
        self._send()

    def _on_frontend_state(self, change) -> None:
        message = change["new"] or {}
        session = message.get("session")
        moves = self._new_moves(message, self.acks.get(session, 0))
        if not moves:
            return  # taken already (an echo of an old message)
        refused = False
        # A state must never acknowledge a move it does not hold yet: the page drops the moves
        # acknowledged and draws the state, so it would draw an older one (a state sent from the
        # background mid-batch would draw the line back). So each move is acknowledged once
        # applied, and no state is sent while the batch applies (its own reply, below, carries
        # the band).
        self._applying = True
        try:
            for seq, changes in moves:  # in the order the user made them
                try:
                    self._apply(changes)
                except Exception:  # noqa: BLE001 - shown in the banner by update()
                    refused = True  # the reply says so; the next moves still apply
                self.acks[session] = seq
                self.session, self.last_seq = session, seq
        finally:
            self._applying = False
        self._send(refused=refused)

    @staticmethod
    def _new_moves(message: dict, acked: int) -> list:
        """``[(seq, changes)]`` of the moves in ``message`` not taken yet, oldest first.

        A message carries every move its front end has not seen acknowledged (``moves``):
        ipywidgets merges the saves made while a message is in flight, so only the newest
        message of several quick moves may arrive. A message with one move has ``changes``
        and ``seq`` only."""
        moves = message.get("moves")
        if not isinstance(moves, list):
            moves = [{"seq": message.get("seq"), "changes": message.get("changes")}]
        return [
            (m["seq"], m["changes"])
            for m in moves
            if isinstance(m, dict)
            and isinstance(m.get("seq"), int)
            and isinstance(m.get("changes"), dict)
            and m["seq"] > acked
        ]

    def _apply(self, changes: dict) -> None:
        """The keys a front-end move changed, in one transaction. ``population_set`` is no
        trait (the state keeps it as a flag): setting ``n_pos``/``n_neg`` raises it, so a
        population the front end still lets follow p(+) is let follow again here."""
        s = self.w.state
        follow = not changes.get("population_set", s.population_set)
        self.w._tx.update(
            **{k: changes[k] for k in STATE_KEYS if k in changes and k != "population_set"}
        )
        if follow and s.population_set:
            s.follow_population()
        elif not follow:
            s.population_set = True

    def _on_message(self, _model, content, _buffers) -> None:
        """A move the page refused: shown in the widget's banner (the page has no banner of its
        own, and a refusal only in the browser's console would go unseen). The next move the
        kernel takes clears it."""
        if isinstance(content, dict) and content.get("event") == "refused":
            message = str(content.get("message", ""))[:500]
            self.w.errors.show(ValueError(message), context="refused")

    def _on_state(self, _change) -> None:
        if not self._applying:
            self._send()

    def resend(self) -> None:
        """Send the state again if what the front end draws from changed outside the traits
        (honest curves arriving from the background)."""
        if not self._applying:
            self._send()

    def _send(self, *, refused: bool = False) -> None:
        """Send the kernel's state, once per change: an update of several traits notifies each
        (all after the last is set), and the front ends need the state only once."""
        message = {
            "state": front_end_state(self.w),
            "acks": dict(self.acks),
            "attached": self._attached,
            "session": self.session,
            "ack": self.last_seq,
            "refused": refused,
            "runner_up_band": self._runner_up_band(),
        }
        if message != self._last_sent:
            self._last_sent = message
            self.model.kernel_state = message

    def send_state(self) -> None:
        """Send the kernel's state again (a band arrived for it). Not while a batch of
        moves applies: its own reply carries the band."""
        if not self._applying:
            self._send()

    def _runner_up_band(self):
        """The band the kernel's headline says (its decision's), for the page's headline to say
        too when it is of the page's state (``decide`` in the page checks that); None without."""
        band = self.w.decision.runner_up_band
        return None if band is None else band.to_dict()

    # ------------------------------------------------------------------ export
    def owned_values(self) -> dict:
        """``{widget: {trait: value}}`` of every mark and table the front end owns, computed
        from the Python model at the current state (what the kernel would have drawn)."""
        w = self.w
        values = dict(w.operating_tool.mark_values()[0])
        values.update(w.constraint_tool.current_values())
        values.update(w.readout_view.html_values())
        values.update(self._control_values())
        return values

    def _control_values(self) -> dict:
        """The owned controls as the front end links them for the kernel's state (a trait set
        from Python reaches the kernel's copies only through the front end's echo). The ratio
        and capacity sliders, whose ranges move too, are left as they are."""
        import html

        from ...model import readable_value
        from ..text.headline import headline_html
        from ..text.readout import population_text
        from ..tools.constraint import capacity_text
        from ..tools.operating_point import format_ratio, pcf_label

        s, op, con = self.w.state, self.w.operating_tool, self.w.constraint_tool
        p_pos, _fn, _fp, _ratio, _field = op.bindings
        _constraint, max_fpr, _capacity, _n_pos, _n_neg = con.bindings
        index = [o[1] if isinstance(o, tuple) else o for o in con.constraint.options]
        return {
            op.p_pos: {"value": p_pos.shown(min(max(s.p_pos, op.p_pos.min), op.p_pos.max))},
            # the fields show the readable number, as push_controls and the front end do
            op.p_pos_value: {"value": readable_value(s.p_pos)},
            op.cost_fn: {"value": readable_value(s.cost_fn)},
            op.cost_fp: {"value": readable_value(s.cost_fp)},
            op.ratio_text: {"value": f"= {format_ratio(s.cost_fn, s.cost_fp)}"},
            op.pcf: {"value": pcf_label(s.pcf, s.cost_fn, s.cost_fp)},
            con.constraint: {"index": index.index(s.constraint)},
            con.neyman_pearson_box.layout: {
                "display": None if s.constraint == "neyman_pearson" else "none"
            },
            con.workforce_box.layout: {"display": None if s.constraint == "workforce" else "none"},
            con.max_fpr: {"value": max_fpr.shown(s.max_fpr)},
            con.capacity_value: {"value": capacity_text(s.capacity, s.n_pos, s.n_neg)},
            con.n_pos: {"value": readable_value(s.n_pos)},
            con.n_neg: {"value": readable_value(s.n_neg)},
            con.population_value: {"value": html.escape(population_text(s))},
            self.w.headline.widget: {"value": headline_html(self.w.headline.text)},
        }

    def patch_export_state(self, state: dict) -> None:
        """Make an embedded widget state (``ipywidgets.embed.dependency_state``) show the
        current state without the link: the owned marks and tables as Python computes them
        (the kernel's copies are not written while attached), and no link model (a page has
        no anywidget; its own module binds the page)."""
        from ipywidgets.widgets.widget import _remove_buffers

        link_ref = f"IPY_MODEL_{self.model.model_id}"
        state.pop(self.model.model_id, None)
        root = state.get(self.w.widget.model_id)
        if root is not None:
            root["state"]["children"] = [c for c in root["state"]["children"] if c != link_ref]
        if not self.attached:
            return
        for widget, traits in self.owned_values().items():
            entry = state.get(widget.model_id)
            if entry is None:
                continue
            raw = {name: _to_json(widget, name, value) for name, value in traits.items()}
            plain, paths, buffers = _remove_buffers(raw)
            entry["state"].update(plain)
            kept = [b for b in entry.get("buffers", []) if b["path"][0] not in traits]
            kept += [
                {"encoding": "base64", "path": p, "data": base64.b64encode(d).decode("ascii")}
                for p, d in zip(paths, buffers)
            ]
            if kept:
                entry["buffers"] = kept
            else:
                entry.pop("buffers", None)


def _to_json(widget, name, value):
    """``value`` of trait ``name`` as ipywidgets would send it (validated first: bqplot turns
    lists into arrays there)."""
    value = widget.traits()[name]._validate(widget, value)  # None where allowed
    return widget.trait_metadata(name, "to_json", widget._trait_to_json)(value, widget)
