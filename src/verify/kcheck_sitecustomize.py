"""sitecustomize of `kcheck verify --run`: starts kcheck's launch recorder
(kcheck_recorder.py, beside this file) in every Python process of the
user's command, then runs the sitecustomize this one hides, if any."""
import os as _os
import sys as _sys


def _kcheck_start():
    here = _os.path.dirname(_os.path.abspath(__file__))
    try:
        import kcheck_recorder
        kcheck_recorder.install()
    except Exception as e:  # noqa: BLE001 - never break the user's program
        print("kcheck verify --run: the launch recorder did not start: %s" % e, file=_sys.stderr)
    # The user's own sitecustomize, further down the path.
    import importlib.machinery
    import importlib.util
    rest = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.origin and _os.path.abspath(spec.origin) != _os.path.abspath(__file__):
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)


_kcheck_start()
