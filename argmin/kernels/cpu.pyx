"""The vector extensions of this CPU, which tell the kernel variants it runs.

A module of its own, compiled for the architecture's baseline alone: every CPU
runs it, whichever variants of the kernels a build has (see meson.options).
"""

cdef extern from "platform.h":
    int argmin_cpu_level() nogil


def cpu_level():
    """Vector extensions of this CPU that the kernels can use.

    0: none beyond the architecture's baseline; 2: AVX2 (with FMA and BMI2);
    3: AVX-512 (F, BW, VL and DQ) as well.
    """
    return argmin_cpu_level()
