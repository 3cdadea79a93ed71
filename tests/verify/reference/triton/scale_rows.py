# Test reference for the verify tests (not a bundled reference).
def scale_rows(x, **_):
    return 2 * x
