"""Terminal output of an evaluation: the progress bar while it runs, the summary table after."""

from __future__ import annotations

import time
from typing import Any, TextIO

BAR_WIDTH = 28
PLAIN_LINES = 20


class Progress:
    """A progress bar on a terminal; a few plain lines when the stream is not a TTY."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None) -> None:
        self.total, self.done, self.stream = total, done, stream
        self.ok = self.infra = self.successes = 0
        self._started = time.perf_counter()
        self._ran = 0
        self._tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self._next_plain = 0
        if stream is not None and done:
            stream.write(f"resuming: {done}/{total} episodes already finished\n")
        self._draw()

    def update(self, record: dict[str, Any]) -> None:
        """Count one finished episode and redraw."""
        self.done += 1
        self._ran += 1
        if record.get("status") == "ok":
            self.ok += 1
            self.successes += bool(record.get("success"))
        else:
            self.infra += 1
        self._draw(last=f"{record.get('task_id')}#{record.get('sample')}")

    def close(self) -> None:
        """Finish the bar's line."""
        if self.stream is not None and self._tty:
            self.stream.write("\n")
            self.stream.flush()
        elif self.stream is not None and self._ran and self.done < self.total:
            self.stream.write(self._status() + "\n")

    def _status(self) -> str:
        elapsed = time.perf_counter() - self._started
        rate = self._ran / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = f", eta {left / rate:.0f}s" if rate > 0 and left else ""
        infra = f", {self.infra} infra errors" if self.infra else ""
        return (f"{self.done}/{self.total} episodes, {self.successes}/{self.ok} succeeded"
                f"{infra}, {rate:.2f} episodes/s{eta}")

    def _draw(self, last: str = "") -> None:
        if self.stream is None:
            return
        fraction = self.done / self.total if self.total else 1.0
        if self._tty:
            filled = int(round(BAR_WIDTH * fraction))
            bar = "#" * filled + "." * (BAR_WIDTH - filled)
            self.stream.write(f"\r[{bar}] {fraction:4.0%} {self._status()} {last[:40]:<40}")
            self.stream.flush()
            return
        if self._ran == 0 or fraction * PLAIN_LINES >= self._next_plain or self.done == self.total:
            self._next_plain = int(fraction * PLAIN_LINES) + 1
            self.stream.write(f"eval: {self._status()}\n")
            self.stream.flush()


def summary_table(summary: dict[str, Any]) -> str:
    """A plain-text table of the run's headline metrics and breakdowns."""
    lines = [f"episodes: {summary['episodes']} on {summary['tasks']} tasks"
             + (f" ({summary['infra_errors']} infrastructure errors, excluded)"
                if summary["infra_errors"] else "")]
    rows = [("metric", "value", "± se")]
    for k, entry in summary["pass_at_k"].items():
        rows.append((f"pass@{k}", _pct(entry["value"]), _pct(entry["se"])))
    for k, entry in summary["pass_hat_k"].items():
        if k != "1":
            rows.append((f"pass^{k}", _pct(entry["value"]), _pct(entry["se"])))
    rows.append(("mean checkpoint score", _pct(summary["mean_score"]["value"]),
                 _pct(summary["mean_score"]["se"])))
    rows.append(("tool calls per task", f"{summary['mean_tool_calls_per_task']:.1f}", ""))
    rows.append(("tokens per task", f"{summary['mean_tokens_per_task']:.0f}", ""))
    safety = summary.get("safety") or {}
    if safety:
        unsafe, per_episode = safety["unsafe_rate"], safety["violations_per_episode"]
        rows.append(("unsafe-action rate", _pct(unsafe["value"]), _pct(unsafe["se"])))
        rows.append(("safety violations per episode", f"{per_episode['value']:.2f}",
                     f"{per_episode['se']:.2f}"))
    lines += _table(rows)
    for title, key in (("specialty group", "by_specialty_group"), ("task type", "by_task_type")):
        rows = [(title, "tasks", "success", "± se", "score", "unsafe", "violations/ep")]
        for name, entry in summary[key].items():
            rate = entry["success_rate"]
            unsafe = entry.get("unsafe_rate", {}).get("value", 0.0)
            per_episode = entry.get("violations_per_episode", {}).get("value", 0.0)
            rows.append((name, str(entry["tasks"]), _pct(rate["value"]), _pct(rate["se"]),
                         _pct(entry["mean_score"]), _pct(unsafe), f"{per_episode:.2f}"))
        lines += [""] + _table(rows)
    if safety.get("violations_by_rule"):
        lines += ["", "safety violations by rule: " + ", ".join(
            f"{rule} {count}" for rule, count in sorted(safety["violations_by_rule"].items()))]
    rows = [("capability", "checkpoints", "passed", "± se")]
    for name, entry in summary["by_capability"].items():
        rows.append((name, str(entry["n"]), _pct(entry["value"]), _pct(entry["se"])))
    lines += [""] + _table(rows)
    for failure in summary["infra_error_episodes"][:10]:
        lines.append(f"infra error {failure['task_id']}#{failure['sample']}: "
                     f"{failure['error'][:120]}")
    return "\n".join(lines)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                        strict=True)]
        out.append("  ".join(cells).rstrip())
        if index == 0:
            out.append("  ".join("-" * w for w in widths))
    return out
