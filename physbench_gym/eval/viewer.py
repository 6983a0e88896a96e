"""The report's trajectory viewer: episodes embedded as JSON, stepped through by a small script."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from physbench_gym.eval.store import read_trajectory

MAX_EPISODES = 250
MAX_TEXT = 2000

SCRIPT = """
(function(){
const data=JSON.parse(document.getElementById('episodes-data').textContent);
const pick=document.getElementById('episode'),box=document.getElementById('step-box');
const head=document.getElementById('episode-head'),pos=document.getElementById('step-pos');
let ep=null,i=0;
data.forEach((e,n)=>{const o=document.createElement('option');o.value=n;
o.textContent=e.task_id+' #'+e.sample+' - '+(e.status!=='ok'?'infra error':
(e.success?'success':'fail'))+' ('+(100*e.score).toFixed(0)+'%)';pick.appendChild(o);});
function esc(s){return String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;',
'"':'&quot;'}[c]));}
function showEpisode(){ep=data[+pick.value];i=0;
let h='<p><b>'+esc(ep.task_id)+'</b> sample '+ep.sample+', seed '+ep.seed+', '+
esc(ep.status==='ok'?(ep.success?'success':'fail'):'infra error: '+ep.error)+
', score '+(100*ep.score).toFixed(1)+'%, '+ep.steps.length+' steps, termination '+
esc(ep.termination)+'</p><table><tr><th>checkpoint</th><th>capability</th><th>grader</th>'+
'<th>passed</th><th>reason</th></tr>';
ep.checkpoints.forEach(c=>{h+='<tr><td>'+esc(c.id)+'</td><td>'+esc(c.capability)+
'</td><td>'+esc(c.grader)+'</td><td class="'+(c.passed?'ok':'bad')+'">'+
(c.passed?'yes':'no')+'</td><td>'+esc(c.reason)+'</td></tr>';});
head.innerHTML=h+'</table>';showStep();}
function showStep(){const n=ep.steps.length;
if(!n){pos.textContent='no steps';box.innerHTML='<p class="muted">The episode has no steps.'+
'</p><h4>Brief</h4><pre>'+esc(ep.brief)+'</pre>';return;}
i=Math.max(0,Math.min(n-1,i));const s=ep.steps[i];pos.textContent='step '+(i+1)+' / '+n;
box.innerHTML=(i===0?'<h4>Brief</h4><pre>'+esc(ep.brief)+'</pre>':'')+
'<h4>Call: '+esc(s.tool||'(invalid action)')+'</h4><pre>'+esc(s.arguments)+'</pre>'+
'<h4>Response'+(s.ok?'':' <span class="bad">(error)</span>')+'</h4><pre>'+
esc(s.observation)+'</pre><p class="muted">reward '+s.reward.toFixed(3)+', score '+
(100*s.score).toFixed(1)+'%, checkpoints passed: '+esc(s.passed.join(', ')||'none')+'</p>';}
pick.onchange=showEpisode;
document.getElementById('prev').onclick=()=>{i--;showStep();};
document.getElementById('next').onclick=()=>{i++;showStep();};
document.addEventListener('keydown',e=>{if(e.target.tagName==='SELECT')return;
if(e.key==='ArrowLeft'){i--;showStep();}if(e.key==='ArrowRight'){i++;showStep();}});
if(data.length)showEpisode();
})();
"""


def viewer_section(records: list[dict[str, Any]], out: Path) -> str:
    """The viewer's HTML: a picker, step controls, the embedded episodes and the script."""
    episodes = [_episode(record, out) for record in _chosen(records)]
    payload = json.dumps(episodes, ensure_ascii=True, separators=(",", ":"))
    payload = payload.replace("</", "<\\/").replace("<!--", "<\\!--")
    note = ("" if len(episodes) == len(records) else
            f" Showing {len(episodes)} of {len(records)} episodes.")
    return (f"<h2>Trajectory viewer</h2><p class=\"muted\">Step through an episode's tool calls "
            f"and the EHR's responses (long texts are shortened).{escape(note)}</p>"
            "<p><select id=\"episode\"></select> <button id=\"prev\">&larr; prev</button> "
            "<span id=\"step-pos\"></span> <button id=\"next\">next &rarr;</button></p>"
            "<div id=\"episode-head\"></div><div id=\"step-box\"></div>"
            f"<script type=\"application/json\" id=\"episodes-data\">{payload}</script>"
            f"<script>{SCRIPT}</script>")


def _chosen(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    first = [r for r in records if r["sample"] == 0]
    rest = [r for r in records if r["sample"] != 0]
    rest.sort(key=lambda r: (r.get("status") == "ok" and bool(r.get("success")), r["sample"]))
    return (first + rest)[:MAX_EPISODES]


def _episode(record: dict[str, Any], out: Path) -> dict[str, Any]:
    events = read_trajectory(out, record)
    brief = next((e.get("observation", "") for e in events if e.get("type") == "reset"), "")
    steps = [_step(e) for e in events if e.get("type") == "step"]
    checkpoints = [{"id": cid, "capability": c.get("capability", ""),
                    "grader": c.get("grader", ""), "passed": bool(c.get("passed")),
                    "reason": _short(str(c.get("reason", "")))}
                   for cid, c in record.get("checkpoints", {}).items()]
    return {"task_id": record["task_id"], "sample": record["sample"],
            "seed": record.get("seed"), "status": record.get("status", "ok"),
            "error": _short(str(record.get("error", ""))), "success": bool(record.get("success")),
            "score": float(record.get("score", 0.0)), "termination": record.get("termination"),
            "brief": _short(brief), "steps": steps, "checkpoints": checkpoints}


def _step(event: dict[str, Any]) -> dict[str, Any]:
    action = event.get("action", {})
    arguments = action.get("arguments", action.get("raw", ""))
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, indent=1, ensure_ascii=False, default=str)
    info = event.get("info", {})
    return {"tool": event.get("tool", ""), "arguments": _short(arguments),
            "observation": _short(str(event.get("observation", ""))),
            "reward": float(event.get("reward", 0.0)), "ok": bool(info.get("ok", True)),
            "score": float(info.get("score", 0.0)), "passed": list(info.get("passed", []))}


def _short(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n… [{len(text) - limit} more chars]"
