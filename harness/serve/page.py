"""The upload page at / and its script: a form (token, game, files), then live progress, the
report of the public cases, in the local report's look, and the student's own game where the
service searches one (or why there is none)."""
from markupsafe import escape


def index(games: list[str], max_bytes: int) -> str:
    options = "".join(f'<option value="{escape(g)}">{escape(g)}</option>' for g in games)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Self-check</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #222; }}
label {{ display: block; margin: .6em 0 .2em; }} input, select, button {{ font-size: 1em; }}
#progress {{ margin: 1em 0; color: #555; }} #verdict {{ font-weight: bold; }}
.passed {{ color: #1a7f37; }} .failed {{ color: #b3261e; }}
iframe {{ width: 100%; height: 70vh; border: 1px solid #ddd; margin-top: 1em; }}
.meta {{ color: #666; font-size: .9em; }}
</style></head>
<body>
<h1>Self-check</h1>
<p class="meta">Your program runs on the public cases, as the grader will run it. Hidden cases are counted, never
shown; the score here is not your grade. At most {max_bytes // 1024} KB: your source files or one zip of your folder.</p>
<form id="upload" method="post" action="/api/submissions" enctype="multipart/form-data">
<label for="token">Your token</label><input id="token" name="token" type="password" autocomplete="off" required size="40">
<label for="game">Game</label><select id="game" name="game">{options}</select>
<label for="files">Files or a zip</label><input id="files" name="files" type="file" multiple required>
<p><button id="send" type="submit">Check</button></p>
</form>
<div id="progress" role="status"></div>
<pre id="verdict"></pre>
<pre id="own-game" hidden></pre>
<iframe id="report" title="report" sandbox="" hidden></iframe>
<script src="/app.js"></script>
</body></html>
"""


SCRIPT = r"""'use strict';
const form = document.getElementById('upload');
const progress = document.getElementById('progress');
const verdict = document.getElementById('verdict');
const frame = document.getElementById('report');
const ownGame = document.getElementById('own-game');
const pause = ms => new Promise(done => setTimeout(done, ms));

form.addEventListener('submit', async event => {
  event.preventDefault();
  const token = document.getElementById('token').value;
  const headers = {'Authorization': 'Bearer ' + token};
  verdict.textContent = ''; verdict.className = ''; frame.hidden = true; ownGame.hidden = true;
  progress.textContent = 'Uploading…';
  const sent = new FormData(form);
  sent.delete('token');  // the token goes in the header, checked before the body is read
  let answer = await fetch('/api/submissions', {method: 'POST', body: sent, headers, credentials: 'omit'});
  let data = await answer.json();
  if (answer.status !== 202) { progress.textContent = 'Refused: ' + data.error; return; }
  const url = data.url;
  for (;;) {
    answer = await fetch(url, {headers, credentials: 'omit'});
    data = await answer.json();
    if (!answer.ok) { progress.textContent = 'Error: ' + data.error; return; }
    if (data.state === 'done' && !(data.own_game && data.own_game.status === 'searching')) break;
    progress.textContent = data.state === 'queued' ? `Queued: ${data.position} ahead of you`
      : data.state === 'done' ? 'Searching for a game of your own where your program and the handout part ways…'
      : data.cases_total ? `Running: ${data.cases_done} of ${data.cases_total} public cases done`
      : 'Running your program on the public cases…';
    await pause(700);
  }
  const r = data.result;
  progress.textContent = 'Done. ' + r.note + (r.hidden_note ? ' ' + r.hidden_note : '');
  verdict.textContent = r.published ? `${r.passed}/${r.total} public cases passed — self-check score ${r.percent.toFixed(1)} %`
                                    : 'No score: the grader failed on a case; submit again';
  verdict.className = r.all_passed ? 'passed' : 'failed';
  const own = data.own_game;
  if (own && own.status !== 'not computed') {
    ownGame.textContent = own.status === 'found' ? own.text
      : 'Game of your own: ' + own.status + (own.why ? ' (' + own.why + ')' : '');
    ownGame.hidden = false;
  }
  answer = await fetch(data.report, {headers, credentials: 'omit'});
  frame.srcdoc = await answer.text();
  frame.hidden = false;
});
"""
