"""The web page's port of Python's generator (web/static/web/js/pyrandom.js) draws what
`random.Random(seed)` draws, call for call, so that a replay page can deal a round again from
its seed: run under Node (installed with the dev tools) against CPython for many seeds."""

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parent.parent / "web/static/web/js/pyrandom.js"
# Node comes with the dev tools (make install), beside this Python.
NODE = shutil.which("node", path=str(Path(sys.executable).parent)) or "node"
SEEDS = ["a", "replays-0001", "3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e5f", "种子", "x" * 200]
SCRIPT = """
import { PyRandom } from %s;
const out = [];
for (const seed of %s) {
  const r = await PyRandom.fromText(seed);
  const deck = [...Array(108).keys()];
  r.shuffle(deck);
  out.push([deck, r.randrange(88), r.randrange(4), r.randint(1, 6), r.random(), r.randrange(1)]);
}
console.log(JSON.stringify(out));
"""


def python_draws(seed: str) -> list:
    rng = random.Random(seed)
    deck = list(range(108))
    rng.shuffle(deck)
    return [deck, rng.randrange(88), rng.randrange(4), rng.randint(1, 6), rng.random(),
            rng.randrange(1)]


def test_the_page_draws_what_python_draws_from_the_same_seed(tmp_path):
    script = tmp_path / "draw.mjs"
    script.write_text(SCRIPT % (json.dumps(MODULE.as_uri()), json.dumps(SEEDS)))
    done = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=60,
                          check=True)
    assert json.loads(done.stdout) == [python_draws(seed) for seed in SEEDS]
