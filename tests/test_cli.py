"""The ``argmin`` command (``python -m argmin``): tensor files, flags, the Iris default."""

import os
import shutil
import subprocess
import sys

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from argmin.__main__ import iris_distances, main

from . import oracle
from .fresh import run_code, run_python
from .conftest import BY_NAME


def run(*args, cwd):
    return run_python("-m", "argmin", *args, cwd=cwd)


def test_default_runs_on_iris(tmp_path):
    out = tmp_path / "nearest.npy"
    done = run("--output", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Iris" in done.stdout
    distances, species, _ = iris_distances()
    result = np.load(out)
    np.testing.assert_array_equal(result, oracle.argmin(distances, 1, 1, 0))
    agree = int((result[:, 0] == species).sum())
    assert f"for {agree} of 150 flowers" in done.stdout
    assert agree > 130  # nearest centroid classifies Iris well


def test_iris_farthest_species_with_argmax(tmp_path):
    out = tmp_path / "farthest.npy"
    done = run("--op", "ArgMax", "--keepdims", "0", "--output", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ArgMax-13(axis=1, keepdims=0)" in done.stdout
    distances, species, _ = iris_distances()
    result = np.load(out)
    np.testing.assert_array_equal(result, oracle.argmax(distances, 1, 0, 0))
    assert not np.any(result == species)  # no flower is farthest from its own species
    assert "agrees with the recorded species" not in done.stdout


@pytest.mark.parametrize("op", [None, "ArgMin", "ArgMax"])
@pytest.mark.parametrize("opset", [1, 11, 12, 13])
def test_npy_file_with_flags(tmp_path, capsys, opset, op):
    data = np.array([[[3, 1, 1], [0, 0, 5]], [[2, 2, 2], [9, 9, 1]]], dtype=np.int16)
    np.save(tmp_path / "x.npy", data)
    out = tmp_path / "y.npy"
    flags = ["--axis", "-1", "--keepdims", "0", "--opset", str(opset), "--output", str(out)]
    flags += ["--op", op] if op else []
    last = opset >= 12
    if last:
        flags += ["--select-last-index", "1"]
    assert main([str(tmp_path / "x.npy"), *flags]) == 0
    np.testing.assert_array_equal(np.load(out), BY_NAME[op or "ArgMin"].oracle(data, -1, 0, last))
    assert f"{op or 'ArgMin'}-{opset}" in capsys.readouterr().out


def test_pb_tensor_file(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    data = np.array([[1.5, -2.0, np.nan], [0.0, -0.0, 4.0]], dtype=np.float32)
    (tmp_path / "input_0.pb").write_bytes(numpy_helper.from_array(data).SerializeToString())
    out = tmp_path / "y.npy"
    assert main([str(tmp_path / "input_0.pb"), "--axis", "1", "--output", str(out)]) == 0
    np.testing.assert_array_equal(np.load(out), oracle.argmin(data, 1, 1, 0))
    assert onnx is not None


def test_errors_are_reported_not_raised(tmp_path):
    np.save(tmp_path / "b.npy", np.array([True, False]))
    done = run(str(tmp_path / "b.npy"), cwd=tmp_path)
    assert done.returncode == 2
    assert "does not accept element type bool" in done.stderr
    assert "Traceback" not in done.stderr
    done = run(str(tmp_path / "b.npy"), "--opset", "11", "--select-last-index", "1", cwd=tmp_path)
    assert done.returncode == 2 and "opset 12" in done.stderr
    # bfloat16 saved by numpy comes back as 2-byte void: the error says how to read it.
    np.save(tmp_path / "h.npy", np.array([1.0, -2.0], dtype=ml_dtypes.bfloat16))
    done = run(str(tmp_path / "h.npy"), cwd=tmp_path)
    assert done.returncode == 2
    assert "does not accept element type void16" in done.stderr
    assert "--dtype bfloat16" in done.stderr


@pytest.mark.parametrize("last", [0, 1])
def test_dtype_bfloat16_reads_what_numpy_saved(tmp_path, last, capsys):
    data = np.array([[1.0, -2.0, -2.0], [np.nan, 3.0, np.nan]], dtype=ml_dtypes.bfloat16)
    np.save(tmp_path / "h.npy", data)
    assert np.load(tmp_path / "h.npy").dtype.kind == "V"  # what the option is for
    out = tmp_path / "y.npy"
    assert main([str(tmp_path / "h.npy"), "--dtype", "bfloat16", "--axis", "1",
                 "--select-last-index", str(last), "--output", str(out)]) == 0
    np.testing.assert_array_equal(np.load(out), oracle.argmin(data, 1, 1, last))
    assert "bfloat16" in capsys.readouterr().out


@pytest.mark.parametrize("dtype", ["float16", "int16", "float32"])
def test_dtype_bfloat16_refuses_other_elements(tmp_path, dtype):
    np.save(tmp_path / "x.npy", np.arange(4, dtype=dtype))
    done = run(str(tmp_path / "x.npy"), "--dtype", "bfloat16", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("argmin: error: --dtype bfloat16 reads elements of 2-byte void")
    assert dtype in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("suffix", [".npy", ".txt", ".csv", ".TXT"])
@pytest.mark.parametrize("shape,axis,keepdims", [((3,), 0, 0), ((3,), 0, 1), ((4, 5), 1, 0),
                                                 ((4, 5), 0, 1), ((2, 3, 4), 2, 0)])
def test_output_follows_the_extension(tmp_path, suffix, shape, axis, keepdims):
    data = np.random.default_rng(5).permutation(np.prod(shape)).reshape(shape) - 7
    np.save(tmp_path / "x.npy", data)
    out = tmp_path / f"y{suffix}"
    assert main([str(tmp_path / "x.npy"), "--axis", str(axis), "--keepdims", str(keepdims),
                 "--output", str(out)]) == 0
    expected = oracle.argmin(data, axis, keepdims, 0)
    if suffix == ".npy":
        np.testing.assert_array_equal(np.load(out), expected)
    else:
        # One line a row of a 2-d result; one value a line for 0-d and 1-d.
        separator = "," if suffix == ".csv" else " "
        rows = expected.reshape(-1, 1) if expected.ndim < 2 else expected
        assert out.read_text() == "".join(separator.join(map(str, row)) + "\n" for row in rows)


@pytest.mark.parametrize("name", ["y.dat", "y", "y.npz"])
def test_output_of_another_extension_is_refused(tmp_path, name):
    np.save(tmp_path / "x.npy", np.arange(3.0))
    done = run(str(tmp_path / "x.npy"), "--output", str(tmp_path / name), cwd=tmp_path)
    assert done.returncode == 2
    assert "expected a file name ending in .npy, .txt, .csv" in done.stderr
    assert not (tmp_path / name).exists() and "Traceback" not in done.stderr


@pytest.mark.parametrize("keepdims", ["0", "1"])
def test_text_output_of_more_than_two_dimensions_is_refused_first(tmp_path, keepdims):
    np.save(tmp_path / "x.npy", np.zeros((2, 3, 4, 5)[int(keepdims):]))
    done = run(str(tmp_path / "x.npy"), "--keepdims", keepdims, "--output",
               str(tmp_path / "y.csv"), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""  # refused before anything ran
    assert "at most 2 dimensions, and this one has 3" in done.stderr
    assert not (tmp_path / "y.csv").exists() and "Traceback" not in done.stderr


def test_dtype_needs_a_file(tmp_path):
    done = run("--dtype", "bfloat16", cwd=tmp_path)
    assert done.returncode == 2
    assert "--dtype reads the elements of a FILE" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("how", ["console script", "python -m argmin"])
def test_a_bad_argmin_kernels_is_one_line(tmp_path, how):
    choice = "bogus"
    if how == "console script":
        command = shutil.which("argmin", path=str(Path(sys.executable).parent))
        if command is None:
            pytest.skip("the argmin command is not installed beside this Python")
        done = subprocess.run([command, "--help"], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path, env=dict(os.environ, ARGMIN_KERNELS=choice))
    else:
        done = run_python("-m", "argmin", "--help", cwd=tmp_path,
                          env=dict(os.environ, ARGMIN_KERNELS=choice))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(
        f"argmin: error: ARGMIN_KERNELS={choice!r} is not a kernel variant; it takes one of")
    assert done.stderr.count("\n") == 1
    assert all(name in done.stderr for name in ("avx512", "avx2", "baseline"))


def test_a_bad_argmin_kernels_still_raises_in_python(tmp_path):
    done = run_code("import argmin", cwd=tmp_path,
                    env=dict(os.environ, ARGMIN_KERNELS="bogus"))
    assert done.returncode == 1
    assert "ValueError: ARGMIN_KERNELS='bogus' is not a kernel variant" in done.stderr


def test_console_script(tmp_path):
    command = shutil.which("argmin", path=str(Path(sys.executable).parent))
    if command is None:
        pytest.skip("the argmin command is not installed beside this Python")
    np.save(tmp_path / "x.npy", np.array([3.0, -1.0, -1.0], dtype=np.float64))
    done = subprocess.run([command, str(tmp_path / "x.npy"), "--select-last-index", "1",
                           "--output", str(tmp_path / "y.npy")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"),
                                  oracle.argmin(np.array([3.0, -1.0, -1.0]), 0, 1, 1))


def write_model_as_pb(path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    node = helper.make_node("ArgMin", ["x"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [2])], [helper.make_tensor_value_info("y", TensorProto.INT64, [1])])
    onnx.save_model(helper.make_model(graph), str(path))


# What each unreadable file is, and what the one-line error must say was expected.
UNREADABLE = {
    "missing.npy": (None, "No such file"),
    "data.txt": (lambda p: p.write_text("1 2 3"), "expected a .npy or a .pb"),
    "pickled.npy": (lambda p: np.save(p, np.array([{"a": 1}], dtype=object), allow_pickle=True),
                    "array of Python objects"),
    "empty.npy": (lambda p: p.write_bytes(b""), "numpy's .npy format"),
    "text.npy": (lambda p: p.write_text("1 2 3\n"), "numpy's .npy format"),
    "corrupt.pb": (lambda p: p.write_bytes(b"\xff\xff\xff not protobuf"), "TensorProto"),
    "model.pb": (write_model_as_pb, "TensorProto"),
}


@pytest.mark.parametrize("name", UNREADABLE)
def test_unreadable_files_are_reported_not_raised(tmp_path, name):
    make, expected = UNREADABLE[name]
    if name.endswith(".pb"):
        pytest.importorskip("onnx")
    if make is not None:
        make(tmp_path / name)
    done = run(str(tmp_path / name), cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 or "usage:" in lines[0], done.stderr
    assert name in lines[-1] and expected in lines[-1], done.stderr
    assert "Traceback" not in done.stderr and "allow_pickle" not in done.stderr


def test_pb_without_onnx_is_reported_not_raised(tmp_path):
    (tmp_path / "x.pb").write_bytes(b"")
    code = ("import sys; sys.modules['onnx'] = None\n"
            "from argmin.__main__ import main\n"
            f"sys.exit(main([{str(tmp_path / 'x.pb')!r}]))\n")
    done = run_code(code, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("argmin: error: cannot read") and "pip install onnx" in done.stderr
    assert "Traceback" not in done.stderr


def test_output_is_written_where_asked(tmp_path):
    np.save(tmp_path / "x.npy", np.array([2.0, 1.0]))
    done = run(str(tmp_path / "x.npy"), "--output", str(tmp_path / "y.txt"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"saved {tmp_path / 'y.txt'}" in done.stdout
    assert not (tmp_path / "y.txt.npy").exists()
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "y.txt", dtype=np.int64, ndmin=1), [1])


def test_version(tmp_path):
    import argmin

    done = run("--version", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.strip() == f"argmin {argmin.__version__}"


def test_unwritable_output_is_reported_not_raised(tmp_path):
    np.save(tmp_path / "x.npy", np.array([2.0, 1.0]))
    done = run(str(tmp_path / "x.npy"), "--output", str(tmp_path / "no" / "such" / "y.npy"),
               cwd=tmp_path)
    assert done.returncode == 2
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
