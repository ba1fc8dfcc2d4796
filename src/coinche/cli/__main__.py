"""``python -m coinche.cli``: the ``coinche`` command."""

import sys

from . import main

sys.exit(main())
