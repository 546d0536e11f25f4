"""Every bench script is run by CI in its smoke mode (`.ci/run`), so that none can rot."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_every_bench_script_and_each_has_a_smoke_mode():
    scripts = {f"bench/{p.name}" for p in (ROOT / "bench").glob("*.py")
               if 'if __name__ == "__main__":' in p.read_text()}
    listed = re.search(r'BENCHES="([^"]*)"', (ROOT / ".ci" / "run").read_text())[1].split()
    assert sorted(listed) == sorted(scripts)
    for script in scripts:
        assert "smoke" in (ROOT / script).read_text(), f"{script} has no --smoke"
