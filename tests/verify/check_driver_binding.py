"""The verify driver tells a binding's own mistake (binding_error) from a
failure of the kernel it calls: a call= that is not Python, a misspelled
name or attribute in it, or arguments that do not fit a Python function are
the binding's; anything raised below the call expression is the kernel's
(a verdict). Needs no torch or GPU: call_user and binding_error are plain
Python.
    check_driver_binding.py SOURCE_DIR"""
import importlib.util
import sys
import types

src = sys.argv[1]
spec = importlib.util.spec_from_file_location("kcheck_verify_driver", src + "/src/verify/kcheck_verify_driver.py")
drv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(drv)

user = types.ModuleType("user")
exec("def run(x, out):\n"
     "    return helper(x) + out\n"
     "def helper(x):\n"
     "    return x // 0\n"
     "class K:\n"
     "    def __getitem__(self, grid):\n"
     "        return lambda *a: len(a[5])\n"
     "kernel = K()\n", user.__dict__)

failures = []


def outcome(call):
    try:
        drv.call_user(user, call, {"x": 4, "n": 3}, {"out": 1})
    except Exception as e:  # noqa: BLE001
        return drv.binding_error(e)
    return "no exception"


cases = [
    ("run(x, out", "call= is not a Python expression", True),                    # does not parse
    ("rnu(x, out)", "NameError: name 'rnu' is not defined", True),   # misspelled function
    ("run(x, outt)", "NameError", True),                             # misspelled buffer
    ("run(x)", "TypeError", True),                                   # arity of a Python function
    ("user_mod.run(x, out)", "NameError", True),
    ("kernel.lauch(x)", "AttributeError", True),
    ("run(x, out)", None, False),                                    # ZeroDivisionError inside run: the kernel's
    ("kernel[(n,)](x, out)", None, False),                           # IndexError inside the launcher
]
for call, text, mine in cases:
    got = outcome(call)
    if mine and (not got or text not in got):
        failures.append("%r: expected a binding error with %r, got %r" % (call, text, got))
    if not mine and got:
        failures.append("%r: a failure inside the call taken for the binding's: %r" % (call, got))
if outcome("n * 2") != "no exception":
    failures.append("a call that works raised")
for f in failures:
    print("FAILED:", f)
if failures:
    sys.exit(1)
print("ok: %d calls classified" % (len(cases) + 1))
