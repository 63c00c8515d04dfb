"""Device properties: what a layer's ``bindings:`` declare, checked against the spec.

A device of the spec carries, besides the generic keys (name, compatible,
base, size, clock_hz, interrupt_controller, interrupts, stdout), a free
``properties:`` mapping, like device-tree bindings. The layer whose code
drives the device declares, per compatible string, which properties exist,
their types, whether they are required and the device-tree property each
becomes::

    bindings:
      vendor,intc:
        interrupt_inputs: inputs        # the property counting the HWI inputs
        properties:
          inputs: {type: int, min: 1, required: true, dts: "vendor,inputs",
                   doc: hardware interrupt inputs}
          cpu_line: {type: int, min: 0, below: isa.cp0.hw_irq_lines,
                     dts: "vendor,cpu-line", doc: CPU interrupt line it drives}

Property keys: ``type`` (int, bool, string or int-list), ``required``
(default false), ``min``/``max`` (int, int-list), ``below`` (a spec path: the
value must be smaller than that value), ``dts`` (the device-tree property;
without it the value is for the code only) and ``doc``.

A device's binding is the one of its first compatible string that a layer
binds (a higher layer's binding replaces a lower one's). A property its
binding does not declare, a missing required one, a value of the wrong type
or out of range, and properties on a device no layer binds are spec errors
naming the file, line and key. The interrupt controller's binding names the
property that counts its inputs (``interrupt_inputs``): every device's
``interrupts`` must be below it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from . import schema as S
from .errors import Diagnostic, SpecError
from .schema import range_text, text_problem

TYPES = ("int", "bool", "string", "int-list")
PROP_KEYS = ("type", "required", "min", "max", "below", "dts", "doc")
BINDING_KEYS = ("doc", "properties", "interrupt_inputs")
PROP_NAME = r"[a-z][a-z0-9_]*"
DTS_NAME = r"[A-Za-z0-9,._+#-]+"
SPEC_PATH = r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*"

#: ``bindings:`` of a layer.yaml (read by generator.layers with the spec's walker).
BINDINGS_SCHEMA = S.Table(
    doc="device properties, per compatible string", default={}, key_pattern=S.DT_COMPATIBLE,
    key_doc="a compatible string ('vendor,model')",
    value=S.Map(doc="the properties of one compatible", fields={
        "doc": S.Text(doc="what the binding is", default=""),
        "properties": S.Table(
            doc="property name -> its declaration", default={}, key_pattern=PROP_NAME,
            key_doc="a property name (a lowercase identifier)",
            value=S.Map(doc="one property", fields={
                "type": S.Str(doc="value type", choices=TYPES),
                "required": S.Bool(doc="the device must state it", default=False),
                "min": S.Int(doc="smallest value (int, int-list)", required=False),
                "max": S.Int(doc="largest value (int, int-list)", required=False),
                "below": S.Str(doc="a spec path: values are smaller than its value",
                               required=False, pattern=SPEC_PATH,
                               pattern_doc="a spec path such as isa.cp0.hw_irq_lines"),
                "dts": S.Str(doc="the device-tree property", required=False, pattern=DTS_NAME,
                             pattern_doc="a device-tree property name"),
                "doc": S.Text(doc="what it is", default=""),
            })),
        "interrupt_inputs": S.Str(doc="the int property counting the HWI inputs",
                                  required=False, pattern=PROP_NAME,
                                  pattern_doc="a property name"),
    }))


@dataclass(frozen=True)
class Prop:
    name: str
    type: str
    required: bool = False
    min: int | None = None
    max: int | None = None
    below: str | None = None
    dts: str | None = None
    doc: str = ""


@dataclass
class Binding:
    compatible: str
    layer: str                      # display name of the declaring layer, e.g. overrides/<name>
    properties: dict[str, Prop] = field(default_factory=dict)
    interrupt_inputs: str | None = None
    doc: str = ""

    @property
    def where(self) -> str:
        return f"{self.layer}/layer.yaml"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_bindings(raw: Any, layer: str, report) -> dict[str, Binding]:
    """A layer.yaml's ``bindings:`` (of layer ``layer``), shape-checked by
    ``BINDINGS_SCHEMA``, as compatible -> Binding; ``report(path, message)``
    gets what the schema cannot say."""
    out: dict[str, Binding] = {}
    for compat, body in (raw or {}).items():
        if not isinstance(body, dict):
            continue  # the walker reported it
        where = f"bindings.{compat}"
        b = Binding(str(compat), layer, doc=body.get("doc") or "")
        for name, spec in (body.get("properties") or {}).items():
            if not isinstance(spec, dict) or spec.get("type") is None:
                continue
            if spec.get("min") is not None and spec.get("max") is not None \
                    and spec["min"] > spec["max"]:
                report(f"{where}.properties.{name}.max", f"max {spec['max']} is below min "
                       f"{spec['min']}")
            b.properties[name] = Prop(name, spec["type"], bool(spec.get("required")),
                                      spec.get("min"), spec.get("max"), spec.get("below"),
                                      spec.get("dts"), spec.get("doc") or "")
        inputs = body.get("interrupt_inputs")
        if inputs is not None:
            if inputs not in b.properties or b.properties[inputs].type != "int":
                report(f"{where}.interrupt_inputs", f"'{inputs}' is not an int property of "
                       "this binding")
            b.interrupt_inputs = inputs
        out[b.compatible] = b
    return out


def collect(layers) -> dict[str, Binding]:
    """compatible -> Binding over the project's layers (a higher layer's wins)."""
    out: dict[str, Binding] = {}
    for layer in layers:
        out.update(layer.meta.get("bindings") or {})
    return out


def binding_of(bindings: dict[str, Binding], dev: dict[str, Any]) -> Binding | None:
    for compat in dev.get("compatible") or ():
        if compat in bindings:
            return bindings[compat]
    return None


def _lookup(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _check_value(prop: Prop, value: Any, data: dict[str, Any]) -> str | None:
    """What is wrong with ``value`` for ``prop`` (None: nothing)."""
    rng = range_text(prop.min, prop.max)
    if prop.type == "bool":
        return None if isinstance(value, bool) else f"expected true or false, found {value!r}"
    if prop.type == "string":
        if not isinstance(value, str):
            return f"expected one line of text without quotes or backslashes, found {value!r}"
        problem = text_problem(value)
        if problem:
            return (f"expected one line of text without quotes or backslashes, found "
                    f"{value[:60]!r}: {problem}")
        return None
    values = value if prop.type == "int-list" else [value]
    if prop.type == "int-list" and not isinstance(value, list):
        return f"expected a list of integers{rng}, found {value!r}"
    for v in values:
        if not _is_int(v) or (prop.min is not None and v < prop.min) or \
                (prop.max is not None and v > prop.max):
            what = "a list of integers" if prop.type == "int-list" else "an integer"
            return f"expected {what}{rng}, found {v!r}"
        if prop.below is not None:
            limit = _lookup(data, prop.below)
            if _is_int(limit) and v >= limit:
                return f"{prop.name} {v} does not exist: {prop.below} is {limit}"
    return None


def check_properties(spec, bindings: dict[str, Binding], layer_names: list[str]) -> None:
    """Every device's properties against its binding; SpecError naming file, line and key."""
    data = spec.data
    diags: list[Diagnostic] = []
    devices = [d for d in (data["platform"]["devices"] or [])]
    for i, dev in enumerate(devices):
        if dev is None:
            continue
        base = f"platform.devices[{i}].properties"
        props = dev.get("properties") or {}
        b = binding_of(bindings, dev)
        if b is None:
            if props:
                diags.append(spec.diag(base, f"device '{dev['name']}': no layer declares properties "
                                             f"of {', '.join(dev['compatible'])} (layers: "
                                             f"{', '.join(layer_names)})\nfix: declare them under "
                                             "bindings: in the layer.yaml of the layer that drives "
                                             "the device, or remove them"))
            continue
        for key, value in props.items():
            path = f"{base}.{key}"
            prop = b.properties.get(key)
            if prop is None:
                known = list(b.properties)
                close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                tip = f" (did you mean '{close[0]}'?)" if close else ""
                diags.append(spec.diag(path, f"unknown property '{key}' of {b.compatible}{tip}; "
                                             f"{b.where} declares: {', '.join(known) or 'none'}"))
                continue
            problem = _check_value(prop, value, data)
            if problem:
                diags.append(spec.diag(path, f"{problem} ({b.compatible}, {b.where})"))
        for prop in b.properties.values():
            if prop.required and prop.name not in props:
                doc = f" ({prop.doc})" if prop.doc else ""
                diags.append(spec.diag(base, f"missing required property '{prop.name}'{doc} of "
                                             f"device '{dev['name']}' ({b.compatible}, {b.where})"))
    # Each controller's inputs against the interrupts of the devices it serves:
    # those naming it as interrupt_parent, and those naming none for the first.
    ics = [(i, d) for i, d in enumerate(devices) if d is not None and d["interrupt_controller"]]
    for order, (i, ic) in enumerate(ics):
        b = binding_of(bindings, ic)
        if b is None and ic.get("properties"):
            continue  # its properties are refused above: one error is enough
        if b is None or b.interrupt_inputs is None:
            diags.append(spec.diag(f"platform.devices[{i}]", f"interrupt controller '{ic['name']}':"
                                   " no layer says how many interrupt inputs it has\nfix: the layer "
                                   "driving it names the property that counts them "
                                   f"(bindings: {ic['compatible'][0]}: interrupt_inputs:)"))
            continue
        key = b.interrupt_inputs
        n = (ic.get("properties") or {}).get(key)
        if not _is_int(n):
            continue
        for k, dev in enumerate(devices):
            parent = (dev or {}).get("interrupt_parent")
            if parent != ic["name"] and (parent or order):
                continue
            for j, irq in enumerate((dev or {}).get("interrupts") or []):
                if irq is not None and irq >= n:
                    diags.append(spec.diag(
                        f"platform.devices[{k}].interrupts[{j}]",
                        f"input {irq} of '{dev['name']}' does not exist: interrupt controller "
                        f"'{ic['name']}' has {key} {n} (inputs 0..{n - 1})"))
    if diags:
        raise SpecError(diags)


def dts_lines(bindings: dict[str, Binding], dev: dict[str, Any]) -> list[str]:
    """The device-tree properties of a device's ``properties:``, in binding order."""
    b = binding_of(bindings, dev)
    props = dev.get("properties") or {}
    out = []
    for prop in (b.properties.values() if b else ()):
        if prop.dts is None or prop.name not in props:
            continue
        v = props[prop.name]
        if prop.type == "bool":
            if v:
                out.append(f"{prop.dts};")
        elif prop.type == "string":
            out.append(f'{prop.dts} = "{v}";')
        elif prop.type == "int-list":
            out.append(f"{prop.dts} = <{' '.join(str(x) for x in v)}>;")
        else:
            out.append(f"{prop.dts} = <{v}>;")
    return out
