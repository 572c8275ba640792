"""pytest's first conftest, in the checkout's root: the tests import the installed argmin.

``python -m pytest`` puts the working directory first on ``sys.path``; started here, that would
import the checkout's ``argmin/`` folder, which holds no compiled kernels.  Taking the checkout
off ``sys.path`` makes it run as ``pytest`` does.  (An editable install imports alike either
way.)
"""

import os
import sys

_checkout = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [path for path in sys.path if os.path.abspath(path or os.curdir) != _checkout]
