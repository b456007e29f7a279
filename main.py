"""The Android entry point: python-for-android starts ``main.py`` (buildozer.spec, docs/android.md).

On a desktop, start the app with ``catan-companion app`` (installed) or ``python -m companion app`` (checkout).
"""

import sys

from companion.ui.main import main

if __name__ == "__main__":
    sys.exit(main([]))
