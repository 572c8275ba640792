"""The benchmarks that the docs quote run to the end, on the smallest inputs they take.  They skip
when the benchmarks are not beside the tests (the tests run away from the source tree)."""

import pathlib
import subprocess
import sys

import pytest

BENCHMARKS = pathlib.Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("command", [
    ["compare.py", "--mib", "1", "--dtype", "int8", "--repeat", "1", "--passes", "1",
     "--no-competitors"],
    ["values.py", "--mib", "1", "--dtype", "int8", "--repeat", "1"],
    ["values.py", "--mib", "1", "--dtype", "uint8", "--repeat", "1"],
    ["per_core.py", "--repeat", "1", "--dtypes", "int8,float32", "--sets", "16K", "--nan", "1"],
], ids=lambda command: " ".join(command[:1] + command[3:5]))
def test_benchmark_runs(command):
    # Each script parses its options, makes its inputs and prints its table and
    # summary: an option one script takes from another, or a summary of no
    # cases, would stop it with a traceback.
    if not (BENCHMARKS / command[0]).is_file():
        pytest.skip(f"{BENCHMARKS / command[0]} is not here")
    done = subprocess.run([sys.executable, *command], cwd=BENCHMARKS, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert done.stdout.strip().splitlines()[-1], "no summary line"
