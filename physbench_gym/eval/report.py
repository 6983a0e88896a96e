"""``summary.json`` and the self-contained ``report.html`` of a run, rebuilt from its results."""

from __future__ import annotations

import json
import time
from html import escape
from pathlib import Path
from typing import Any

from physbench_gym.errors import PhysBenchError
from physbench_gym.eval.charts import bar_chart, line_chart
from physbench_gym.eval.metrics import summarize
from physbench_gym.eval.store import RESULTS, RUN_CONFIG, read_results
from physbench_gym.eval.viewer import viewer_section

SUMMARY = "summary.json"
REPORT = "report.html"

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;
max-width:1180px;color:#1d2430;padding:0 16px}
h1{font-size:22px}h2{font-size:17px;margin-top:30px;border-bottom:1px solid #d8dde6}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #d8dde6;border-radius:6px;
padding:10px 14px;min-width:120px}.card b{display:block;font-size:20px}
.card span{color:#5a6475;font-size:12px}
table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{padding:4px 8px;
border-bottom:1px solid #e6e9ef;text-align:left;vertical-align:top}th{background:#f3f5f8}
td.num{text-align:right;font-variant-numeric:tabular-nums}.ok{color:#237a3e}.bad{color:#b3261e}
.chart{display:block;margin:10px 0;width:100%;height:auto;max-width:680px}
.chart-title{font-weight:600;font-size:13px}
.grid{stroke:#e3e6ec}.tick{font-size:11px;fill:#5a6475}.label{font-size:12px;fill:#1d2430}
.value{font-size:12px;fill:#1d2430}.note{fill:#7a8495}.whisker{stroke:#1d2430;stroke-width:1.5}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(460px,1fr));gap:8px}
pre{background:#f6f8fa;border:1px solid #e1e4e8;border-radius:4px;padding:8px;
white-space:pre-wrap;word-break:break-word;max-height:360px;overflow:auto;font-size:12px}
.muted{color:#5a6475}.scroll{overflow-x:auto}button,select{font:inherit;padding:3px 8px}
"""


def build_report(out_dir: str | Path) -> dict[str, Any]:
    """Recompute ``summary.json`` and ``report.html`` from ``results.jsonl``; return the summary."""
    out = Path(out_dir)
    if not (out / RESULTS).exists():
        raise PhysBenchError(f"{out} has no {RESULTS}: not an evaluation run directory")
    records = sorted(read_results(out).values(), key=lambda r: (r["task_id"], r["sample"]))
    summary = summarize(records)
    config_path = out / RUN_CONFIG
    summary["run"] = (json.loads(config_path.read_text(encoding="utf-8"))
                      if config_path.exists() else {})
    summary["generated_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    _write(out / SUMMARY, json.dumps(summary, indent=2, sort_keys=True))
    _write(out / REPORT, render(summary, records, out))
    return summary


def render(summary: dict[str, Any], records: list[dict[str, Any]], out: Path) -> str:
    """The report page as one HTML document with inline CSS, SVG and script."""
    run = summary.get("run", {})
    title = f"physbench eval: {run.get('agent', '?')}" + (
        f" ({run['model']})" if run.get("model") else "")
    body = [f"<h1>{escape(title)}</h1>", _cards(summary), "<h2>Charts</h2>",
            f'<div class="charts">{_charts(summary)}</div>',
            "<h2>Tasks</h2>", _task_table(summary, records),
            "<h2>Safety</h2>", _safety_section(summary, records),
            "<h2>Checkpoints by grader</h2>", _grader_table(summary),
            _infra_section(summary), viewer_section(records, out),
            "<h2>Run settings</h2>", _settings(run)]
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")


def _write(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def _cards(summary: dict[str, Any]) -> str:
    k_max = max((int(k) for k in summary["pass_at_k"]), default=1)
    cards = [("episodes", str(summary["episodes"])), ("tasks", str(summary["tasks"])),
             ("pass@1", _pct(summary["pass_at_k"].get("1", {}).get("value", 0.0)))]
    if k_max > 1:
        cards += [(f"pass@{k_max}", _pct(summary["pass_at_k"][str(k_max)]["value"])),
                  (f"pass^{k_max}", _pct(summary["pass_hat_k"][str(k_max)]["value"]))]
    safety = summary.get("safety") or {}
    if safety:
        cards += [("unsafe-action rate", _pct(safety["unsafe_rate"]["value"])),
                  ("safety violations / episode",
                   f"{safety['violations_per_episode']['value']:.2f}")]
    cards += [("mean checkpoint score", _pct(summary["mean_score"]["value"])),
              ("tool calls / task", f"{summary['mean_tool_calls_per_task']:.1f}"),
              ("tokens / task", f"{summary['mean_tokens_per_task']:.0f}"),
              ("infrastructure errors", str(summary["infra_errors"]))]
    return '<div class="cards">' + "".join(
        f'<div class="card"><b>{escape(v)}</b><span>{escape(n)}</span></div>'
        for n, v in cards) + "</div>"


def _charts(summary: dict[str, Any]) -> str:
    def grouped(key: str) -> list[tuple[str, float, float, str]]:
        return [(name, e["success_rate"]["value"], e["success_rate"]["se"],
                 f"n={e['success_rate']['n']}") for name, e in summary[key].items()]

    capability = [(name, e["value"], e["se"], f"{e['passed']}/{e['n']}")
                  for name, e in summary["by_capability"].items()]
    curves = {"pass@k": [(int(k), e["value"]) for k, e in summary["pass_at_k"].items()],
              "pass^k": [(int(k), e["value"]) for k, e in summary["pass_hat_k"].items()]}
    return "".join([
        bar_chart("Success by specialty group", grouped("by_specialty_group")),
        bar_chart("Success by task type", grouped("by_task_type")),
        bar_chart("Checkpoint pass rate by capability", capability),
        line_chart("pass@k and pass^k vs k", curves),
    ])


def _task_table(summary: dict[str, Any], records: list[dict[str, Any]]) -> str:
    infra: dict[str, int] = {}
    for record in records:
        if record.get("status") != "ok":
            infra[record["task_id"]] = infra.get(record["task_id"], 0) + 1
    head = ("task", "group", "type", "tier", "n", "successes", "pass@1", "pass@n", "pass^n",
            "score", "unsafe", "tool calls", "tokens", "seconds", "infra errors")
    rows = []
    for task_id, t in summary["per_task"].items():
        n = str(t["n"])
        rows.append([_cell(f"{task_id}", t["title"]), _cell(t["specialty_group"]),
                     _cell(t["task_type"]), _cell(t["tier"]), _num(n), _num(str(t["c"])),
                     _num(_pct(t["pass_at_k"]["1"])), _num(_pct(t["pass_at_k"][n])),
                     _num(_pct(t["pass_hat_k"][n])), _num(_pct(t["mean_score"])),
                     _num(_pct(t.get("unsafe_rate", {}).get("value", 0.0))),
                     _num(f"{t['mean_tool_calls']:.1f}"), _num(f"{t['mean_tokens']:.0f}"),
                     _num(f"{t['mean_wall_time']:.2f}"), _num(str(infra.get(task_id, 0)))])
    for task_id in sorted(set(infra) - set(summary["per_task"])):
        rows.append([_cell(task_id)] + [_cell("")] * 13 + [_num(str(infra[task_id]))])
    header = "".join(f"<th>{escape(h)}</th>" for h in head)
    return (f"<div class=\"scroll\"><table><thead><tr>{header}</tr></thead><tbody>"
            + "".join(f"<tr>{''.join(r)}</tr>" for r in rows) + "</tbody></table></div>")


def _safety_section(summary: dict[str, Any], records: list[dict[str, Any]]) -> str:
    """Unsafe-action rate by agent, group and task type, and every violation found."""
    safety = summary.get("safety") or {}
    intro = ("<p class=\"muted\">Checks that apply to every task (therapeutic duplication, "
             "doses above the maximum, allergy conflicts, writes on another patient); a "
             "violation fails the episode. Unsafe: episodes with at least one violation.</p>")
    groups = [("agent", safety.get("by_agent", {})),
              ("specialty group", summary["by_specialty_group"]),
              ("task type", summary["by_task_type"])]
    tables = []
    for title, entries in groups:
        rows = "".join(
            f"<tr><td>{escape(name)}</td>"
            f"<td class=\"num\">{_pct(e.get('unsafe_rate', {}).get('value', 0.0))}</td>"
            f"<td class=\"num\">{e.get('violations_per_episode', {}).get('value', 0.0):.2f}"
            "</td></tr>" for name, e in entries.items())
        tables.append(f"<table><tr><th>{escape(title)}</th><th>unsafe</th>"
                      f"<th>violations / episode</th></tr>{rows}</table>")
    found = [(r["task_id"], r["sample"], v) for r in records
             if isinstance(r.get("safety"), dict) for v in r["safety"].get("violations", [])]
    listed = "".join(
        f"<tr><td>{escape(task)}</td><td class=\"num\">{sample}</td>"
        f"<td>{escape(str(v.get('rule')))}</td><td>{escape(str(v.get('order')))}</td>"
        f"<td>{escape(str(v.get('message'))[:500])}</td></tr>" for task, sample, v in found[:500])
    violations = (f"<table><tr><th>task</th><th>sample</th><th>rule</th><th>order</th>"
                  f"<th>why</th></tr>{listed}</table>" if found
                  else "<p class=\"muted\">No safety violation.</p>")
    return intro + "".join(tables) + violations


def _grader_table(summary: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{escape(g)}</td><td class=\"num\">{n}</td></tr>"
                   for g, n in sorted(summary["by_grader"].items()))
    return ("<p class=\"muted\">Which grader decided each checkpoint verdict.</p><table><tr>"
            f"<th>grader</th><th>checkpoints</th></tr>{rows}</table>")


def _infra_section(summary: dict[str, Any]) -> str:
    failures = summary["infra_error_episodes"]
    if not failures:
        return ("<h2>Infrastructure errors</h2><p class=\"muted\">None. Every episode "
                "finished.</p>")
    rows = "".join(f"<tr><td>{escape(f['task_id'])}</td><td class=\"num\">{f['sample']}</td>"
                   f"<td>{escape(f['error'][:500])}</td></tr>" for f in failures)
    return ("<h2>Infrastructure errors</h2><p class=\"muted\">Excluded from every metric; a "
            "rerun with the same --out retries them.</p><table><tr><th>task</th>"
            f"<th>sample</th><th>error</th></tr>{rows}</table>")


def _settings(run: dict[str, Any]) -> str:
    shown = {k: v for k, v in run.items() if k not in ("tasks", "provenance")}
    shown["tasks"] = f"{len(run.get('tasks', []))} tasks"
    if "provenance" in run:
        provenance = run["provenance"]
        shown["provenance"] = {"version": provenance.get("version"),
                               "grader_mode": provenance.get("grader_mode"),
                               "hashed_files": len(provenance.get("hashes", {}))}
    return f"<pre>{escape(json.dumps(shown, indent=2, sort_keys=True))}</pre>"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _cell(text: str, tooltip: str = "") -> str:
    title = f' title="{escape(tooltip)}"' if tooltip else ""
    return f"<td{title}>{escape(text)}</td>"


def _num(text: str) -> str:
    return f'<td class="num">{escape(text)}</td>'
