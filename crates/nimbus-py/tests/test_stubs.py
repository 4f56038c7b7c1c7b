"""The type stubs say what the package really takes: every function, class and method the
stubs declare exists at run time with the same parameters (names, order, kinds, defaults),
and every public name at run time is declared. Editors and type checkers read the stubs, not
the extension, so a parameter added to one and not the other would go unnoticed."""

import ast
import inspect

import pytest

import nimbus
import nimbus._nimbus as extension

from conftest import ROOT

STUBS = ROOT / "crates" / "nimbus-py" / "python" / "nimbus"
MODULES = [("_nimbus.pyi", extension), ("__init__.pyi", nimbus)]
MISSING = object()
LIMITS = {"max_states", "max_memory", "max_work"}


def stub_parameters(node):
    """(name, kind, default) of a stub function's parameters, without self or cls."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [MISSING] * (len(positional) - len(args.defaults)) + [
        ast.literal_eval(d) for d in args.defaults
    ]
    out = []
    for i, (a, d) in enumerate(zip(positional, defaults)):
        kind = "positional" if i < len(args.posonlyargs) else "either"
        out.append((a.arg, kind, d))
    if args.vararg:
        out.append((args.vararg.arg, "varargs", MISSING))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append((a.arg, "keyword", MISSING if d is None else ast.literal_eval(d)))
    if args.kwarg:
        out.append((args.kwarg.arg, "varkw", MISSING))
    if out and out[0][0] in ("self", "cls") and not is_static(node):
        out = out[1:]
    return out


def is_static(node):
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "either",
    inspect.Parameter.VAR_POSITIONAL: "varargs",
    inspect.Parameter.KEYWORD_ONLY: "keyword",
    inspect.Parameter.VAR_KEYWORD: "varkw",
}


def runtime_parameters(obj, method):
    signature = inspect.signature(obj)
    out = []
    for p in signature.parameters.values():
        default = MISSING if p.default is inspect.Parameter.empty else p.default
        out.append((p.name, KINDS[p.kind], default))
    if method and out and out[0][0] in ("self", "cls", "$self"):
        out = out[1:]
    # pyo3 marks the receiver positional-only; the stubs write methods the usual way.
    return [(n, "either" if k == "positional" else k, d) for n, k, d in out]


def normalise(params):
    return [(n, "either" if k == "positional" else k, d) for n, k, d in params]


def declared(stub):
    """(qualified name, stub node, owner class name or None) for every def in a stub file."""
    tree = ast.parse((STUBS / stub).read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node, None
        elif isinstance(node, ast.ClassDef):
            yield node.name, node, None
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield f"{node.name}.{item.name}", item, node.name


CASES = [(stub, module, name, node, owner) for stub, module in MODULES for name, node, owner in declared(stub)]


@pytest.mark.parametrize(
    "stub,module,name,node,owner", CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES]
)
def test_every_declared_name_exists_with_its_parameters(stub, module, name, node, owner):
    obj = module
    for part in name.split("."):
        assert hasattr(obj, part), f"{stub} declares {name}, which the module lacks"
        obj = getattr(obj, part)
    if isinstance(node, ast.ClassDef):
        return
    if name.endswith("__init__") or name.endswith("__new__"):
        # A class's constructor: its text signature is the class's.
        obj = module
        for part in name.split(".")[:-1]:
            obj = getattr(obj, part)
    method = owner is not None and not is_static(node)
    try:
        actual = runtime_parameters(obj, method)
    except (ValueError, TypeError):
        pytest.fail(f"{name} has no signature at run time to check {stub} against")
    expected = normalise(stub_parameters(node))
    if actual and actual[-1][1] == "varkw" and actual[-1][0] == "limits":
        # A wrapper passing `**limits` on to the extension: the stub may name the budgets
        # the extension takes instead.
        actual = actual[:-1]
        while expected and (expected[-1][0] in LIMITS or expected[-1][1] == "varkw"):
            expected = expected[:-1]
    # A stub may write a default as `...` (it has one; which, the docs say).
    expected = [
        (n, k, a[2] if d is Ellipsis and i < len(actual) and a[2] is not MISSING else d)
        for i, ((n, k, d), a) in enumerate(zip(expected, actual + [(None, None, MISSING)] * len(expected)))
    ]
    shown = lambda ps: [(n, k) if d is MISSING else (n, k, d) for n, k, d in ps]
    assert expected == actual, f"{stub}: {name}\n  stub:    {shown(expected)}\n  runtime: {shown(actual)}"


@pytest.mark.parametrize("stub,module", MODULES, ids=[m[0] for m in MODULES])
def test_every_public_name_is_declared(stub, module):
    names = {name for name, _, _ in declared(stub)}
    tree = ast.parse((STUBS / stub).read_text())
    # Names given a type without a def (constants, re-exports) count as declared.
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.ImportFrom, ast.Import)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    public = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    missing = []
    for n in public:
        obj = getattr(module, n)
        if inspect.ismodule(obj):
            continue
        if n not in names:
            missing.append(n)
        elif inspect.isclass(obj) and module is extension:
            for m, member in vars(obj).items():
                if not m.startswith("_") and callable(member) and f"{n}.{m}" not in names:
                    missing.append(f"{n}.{m}")
    assert not missing, f"public at run time but not in {stub}: {missing}"
