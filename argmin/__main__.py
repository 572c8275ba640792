"""Command line: ``argmin [FILE] [--axis N] ...``, or ``python -m argmin ...``.

Runs ONNX ArgMin (or, with ``--op ArgMax``, ArgMax) on a tensor file
(``.npy``, or an ONNX ``TensorProto`` ``.pb`` file with the ``onnx`` extra) and
prints the result; ``--output`` saves it as ``.npy``, or as text (``.txt``,
``.csv``).  Without a file it runs on Fisher's Iris data, shipped with
the package: the distances of each of the 150 flowers to the mean flower of
each species, whose ArgMin along axis 1 classifies the flowers by nearest
centroid (and whose ArgMax gives each flower's farthest species).
"""

import argparse
import os
import sys
from importlib import resources

import numpy as np

from . import __version__, _rules, opset1, opset11, opset12, opset13

_OPSETS = {1: opset1, 11: opset11, 12: opset12, 13: opset13}


def load_tensor(path):
    """Read a ``.npy`` file, or an ONNX ``TensorProto`` (``.pb``) file.

    Raises
    ------
    ValueError
        If the file cannot be read as what its suffix says (or, for a ``.pb``
        file, without the onnx package), with what was expected.
    """
    if str(path).endswith(".pb"):
        try:
            import onnx
            from google.protobuf.message import DecodeError
            from onnx import numpy_helper
        except ImportError:
            raise ValueError("reading .pb tensors needs the onnx package (argmin's onnx "
                             "extra): pip install onnx") from None
        expected = "an ONNX TensorProto file (as onnx.save_tensor writes), not a model"
        try:
            tensor = onnx.load_tensor(str(path))
        except DecodeError:
            raise ValueError(f"not {expected}") from None
        if tensor.data_type == onnx.TensorProto.UNDEFINED:
            raise ValueError(f"holds no tensor element type: expected {expected}")
        return numpy_helper.to_array(tensor)
    try:
        return np.load(path, allow_pickle=False)
    except (ValueError, EOFError) as error:
        if str(error).startswith("Object arrays"):
            raise ValueError("it holds an array of Python objects, not of numbers") from None
        raise ValueError("not an array in numpy's .npy format (as numpy.save writes)") from None


def iris_distances():
    """Squared distances of the Iris flowers to the species' mean flowers.

    Returns
    -------
    distances : numpy.ndarray of float32, shape (150, 3)
    species : numpy.ndarray of int64, shape (150,)
    names : numpy.ndarray of str, shape (3,)
    """
    with resources.files("argmin").joinpath("data/iris.npz").open("rb") as f:
        iris = np.load(f, allow_pickle=False)
        measurements, species = iris["measurements"], iris["species"]
        names = iris["species_names"]
    centroids = np.stack([measurements[species == s].mean(axis=0) for s in range(len(names))])
    distances = ((measurements[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1)
    return distances.astype(np.float32), species, names


#: The extensions --output takes: numpy's format, or text (one row a line; .csv with commas).
_OUTPUT_SUFFIXES = (".npy", ".txt", ".csv")


def save_result(path, result):
    """Write ``result`` (int64) to ``path`` in the format its extension names
    (`_OUTPUT_SUFFIXES`).

    Raises
    ------
    ValueError
        For another extension, or a text file of a result of more than two dimensions.
    OSError
        Where the file cannot be written.
    """
    suffix = _output_suffix(path, result.ndim)
    if suffix == ".npy":
        with open(path, "wb") as f:  # the name as given: np.save would add .npy
            np.save(f, result)
        return
    np.savetxt(path, result.reshape(-1) if result.ndim == 0 else result, fmt="%d",
               delimiter="," if suffix == ".csv" else " ")


def _output_suffix(path, ndim):
    """The extension of ``path``, lower-cased, where it is one that `save_result` writes a
    result of ``ndim`` dimensions to.

    Raises
    ------
    ValueError
        For another extension, or a text file of more than two dimensions.
    """
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in _OUTPUT_SUFFIXES:
        raise ValueError(f"expected a file name ending in {', '.join(_OUTPUT_SUFFIXES)}")
    if suffix != ".npy" and ndim > 2:
        raise ValueError(f"a {suffix} file holds a result of at most 2 dimensions, and this "
                         f"one has {ndim}: write a .npy file instead")
    return suffix


def _flag(text):
    if text.lower() in ("0", "false"):
        return 0
    if text.lower() in ("1", "true"):
        return 1
    raise argparse.ArgumentTypeError(f"expected 0 or 1, got {text!r}")


def _as_bfloat16(data, path, parser):
    """``data``, read from ``path``, as ml_dtypes.bfloat16: elements of 2-byte void (how numpy
    saves bfloat16), or of bfloat16 already; anything else is refused, not reinterpreted."""
    import ml_dtypes

    if data.dtype != ml_dtypes.bfloat16 and not _bfloat16_as_saved(data.dtype):
        parser.exit(2, f"{parser.prog}: error: --dtype bfloat16 reads elements of 2-byte void "
                       f"(how numpy saves bfloat16), and {path} holds {data.dtype}\n")
    return data.view(ml_dtypes.bfloat16)


def _bfloat16_as_saved(dtype):
    """Whether ``dtype`` is what numpy saves and loads ml_dtypes.bfloat16 as: 2-byte void."""
    return dtype.kind == "V" and dtype.itemsize == 2 and dtype.names is None


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="argmin",
        description="ONNX ArgMin (or ArgMax) of a tensor file; without a file, of the Iris "
        "flowers' distances to each species' mean flower: ArgMin gives the nearest species "
        "(nearest centroid), ArgMax the farthest.",
    )
    parser.add_argument("file", nargs="?", help="input tensor: .npy, or .pb (ONNX TensorProto)")
    parser.add_argument("--axis", type=int, default=None,
                        help="axis to reduce (default 0; 1 for the Iris default)")
    parser.add_argument("--keepdims", type=_flag, default=1, help="0 or 1 (default 1)")
    parser.add_argument("--select-last-index", type=_flag, default=0,
                        help="0 or 1 (default 0); opset 12 and later")
    parser.add_argument("--op", choices=_rules.OPERATORS, default="ArgMin",
                        help="the operator to run (default ArgMin)")
    parser.add_argument("--opset", type=int, choices=_rules.OPSETS, default=13,
                        help="ONNX opset whose operator to run (default 13)")
    parser.add_argument("--dtype", choices=["bfloat16"],
                        help="read the file's elements as this type: bfloat16 for a .npy file "
                        "that numpy saved from ml_dtypes.bfloat16 (as 2-byte void)")
    parser.add_argument("--output", metavar="FILE",
                        help="also save the result here: .npy, or text as .txt or .csv")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    if args.dtype and args.file is None:
        parser.error("--dtype reads the elements of a FILE: name one")
    if args.output:
        try:
            _output_suffix(args.output, 0)
        except ValueError as error:
            parser.error(f"--output {args.output}: {error}")

    if args.file is None:
        data, species, names = iris_distances()
        source = "Iris flowers' squared distances to the species' mean flowers (150 x 3)"
        axis = 1 if args.axis is None else args.axis
    else:
        if not args.file.endswith((".npy", ".pb")):
            parser.error(f"{args.file}: expected a .npy or a .pb (ONNX TensorProto) file")
        try:
            data = load_tensor(args.file)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            parser.exit(2, f"{parser.prog}: error: cannot read {args.file}: {reason}\n")
        if args.dtype:
            data = _as_bfloat16(data, args.file, parser)
        species, names = None, None
        source = args.file
        axis = 0 if args.axis is None else args.axis

    kwargs = {"axis": axis, "keepdims": args.keepdims}
    if args.select_last_index:
        if args.opset < 12:
            parser.error("--select-last-index needs --opset 12 or later")
        kwargs["select_last_index"] = args.select_last_index
    if args.output:
        try:  # before the work: the result's rank follows from the input's
            _output_suffix(args.output, data.ndim - (not args.keepdims))
        except ValueError as error:
            parser.exit(2, f"{parser.prog}: error: cannot write {args.output}: {error}\n")
    try:
        result = getattr(_OPSETS[args.opset], args.op)(data, **kwargs)
    except (TypeError, ValueError) as error:
        hint = ""
        if _bfloat16_as_saved(data.dtype):
            hint = (" (a .npy file keeps ml_dtypes.bfloat16 elements as 2-byte void: "
                    "add --dtype bfloat16 to read them as bfloat16)")
        parser.exit(2, f"{parser.prog}: error: {error}{hint}\n")

    attributes = ", ".join(f"{k}={v}" for k, v in kwargs.items())
    print(f"input: {source}, shape {data.shape}, {data.dtype}")
    print(f"{args.op}-{args.opset}({attributes}) -> shape {result.shape}, int64")
    with np.printoptions(threshold=40, edgeitems=5, linewidth=88):
        print(result)
    if species is not None and axis in (1, -1) and args.op == "ArgMin":
        nearest = result.reshape(-1)
        agree = int((nearest == species).sum())
        print(f"nearest species agrees with the recorded species for {agree} of "
              f"{len(species)} flowers ({', '.join(names)})")
    if args.output:
        try:
            save_result(args.output, result)
        except (OSError, ValueError) as error:
            parser.exit(2, f"{parser.prog}: error: cannot write {args.output}: {error}\n")
        print(f"saved {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
