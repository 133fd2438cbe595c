"""How the columns of a tabular catalog become variants: the ``import-table`` mapping.

A mapping is a small YAML file (or the same fields given as keyword options)::

    name: model                                        # the variant name (required)
    range: {column: model, strip: '\\s*\\(.*\\)\\s*$'}  # default: the name
    categories: {value: smartphones}                   # constant, column, or a list of them
    brand: brand                                       # -> "Specifications:Brand"
    price: {column: price_inr, currency: INR}          # -> "Price" = "8999 INR"
    specs:
      ram_gb: {entry: "Memory:RAM", unit: GB}          # -> "Memory:RAM" = "8 GB"
      has_5g: "Network:5G"                             # True/False -> Yes/No
      rating_score: null                               # leave the column out
      resolution: {entry: "Display:Resolution", columns: [res_width_px, res_height_px], format: "{0} x {1} px"}

See :class:`TableMapping` for every field.
"""

from __future__ import annotations

import argparse
import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from dualgraph.skg.names import DEFAULT_SECTION

__all__ = [
    "MappingError",
    "PriceSource",
    "SpecTarget",
    "TableMapping",
    "ValueSource",
    "add_arguments",
    "load_mapping",
    "mapping_from_args",
    "mapping_from_dict",
]


class MappingError(ValueError):
    """The mapping is unusable: names the mapping file, the field or column, and why."""

    def __init__(self, file: str, record: str, reason: str) -> None:
        super().__init__(f"{file}: {record}: {reason}")
        self.file, self.record, self.reason = file, record, reason


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ValueSource(_Strict):
    """Where a text comes from: a column (optionally cleaned with a regex) or a constant."""

    column: str | None = Field(None, description="Column whose cell text is used.")
    value: str | None = Field(None, description="A constant used for every row instead of a column.")
    strip: str | None = Field(
        None,
        description="Regular expression whose matches are removed from the cell text, e.g. a trailing "
        "'(8GB RAM + 128GB)' to turn a variant name into its range.",
    )

    @model_validator(mode="after")
    def _one_source(self) -> ValueSource:
        if (self.column is None) == (self.value is None):
            raise ValueError("give exactly one of 'column' or 'value'")
        if self.strip is not None:
            try:
                re.compile(self.strip)
            except re.error as e:
                raise ValueError(f"'strip' is not a valid regular expression: {e}") from e
        return self


class PriceSource(_Strict):
    """The price column and the currency of its bare numbers."""

    column: str = Field(description="Column holding the price (a number, or a text such as '₹8,999').")
    currency: str | None = Field(
        None, description="ISO 4217 code for cells without a currency symbol, e.g. INR, GBP, EUR."
    )


class SpecTarget(_Strict):
    """One spec written from one column, or from several combined with a format."""

    entry: str = Field(description="Spec key 'Section:Entry'; a key without a section goes to 'Specifications'.")
    unit: str | None = Field(
        None,
        description="Unit appended to plain numbers ('8' -> '8 GB'), so quantities parse without "
        "relying on the entry name. A cell that already carries a unit is kept as it is.",
    )
    columns: list[str] | None = Field(
        None, description="Combine these columns into one value (the mapping key is then only a label)."
    )
    format: str | None = Field(
        None, description="Python format string for 'columns', with {0}, {1}, ... e.g. '{0} x {1} px'."
    )

    @field_validator("entry")
    @classmethod
    def _sectioned(cls, v: str) -> str:
        v = v.strip()
        if not v or v.endswith(":"):
            raise ValueError("empty spec entry")
        return v if ":" in v else f"{DEFAULT_SECTION}:{v}"

    @model_validator(mode="after")
    def _combine(self) -> SpecTarget:
        if (self.columns is None) != (self.format is None):
            raise ValueError("'columns' and 'format' go together")
        if self.columns is not None:
            fields = [f for _, f, _, _ in string.Formatter().parse(self.format or "") if f is not None]
            if not self.columns or any(not f.isdigit() or int(f) >= len(self.columns) for f in fields):
                n = len(self.columns)
                raise ValueError(f"'format' must use {{0}}..{{{n - 1}}} for {n} columns")
        return self


class TableMapping(_Strict):
    """How one row (one product variant) of a CSV / Parquet / JSON Lines catalog is read."""

    name: str = Field(description="Column with the variant name (required; a row without one is quarantined).")
    range: ValueSource | None = Field(
        None, description="Product range (family): a column name, {column, strip} or {value}. Default: the name."
    )
    categories: list[ValueSource] = Field(
        default_factory=list,
        description="Categories: a column name, {column} or {value}, or a list of them; "
        "a list-valued cell gives several categories.",
    )
    brand: str | None = Field(None, description="Column written as the spec 'Specifications:Brand'.")
    model_code: str | None = Field(None, description="Column written as the spec 'Model Code'.")
    price: PriceSource | None = Field(
        None, description="Price column (a plain name or {column, currency}); written as 'Price' = '<number> <ISO>'."
    )
    group_by: str = Field(
        "range",
        description="Rows with the same key become one page: 'range', 'name' or a column name. "
        "Keys are compared case- and space-insensitively.",
    )
    specs: dict[str, SpecTarget | None] = Field(
        default_factory=dict,
        description="Column -> 'Section:Entry', {entry, unit} or {entry, columns, format}; null leaves the column out.",
    )
    unmapped: Literal["keep", "drop"] = Field(
        "keep",
        description="Columns used nowhere else: 'keep' writes them under 'Specifications' with a "
        "humanised entry name ('core_count' -> 'Core count'); 'drop' leaves them out.",
    )
    text: list[str] = Field(default_factory=list, description="Columns whose prose goes into the page Markdown.")
    specs_from: str | None = Field(
        None,
        description="Column holding a spec object (flat key -> value, or section -> entry -> value), "
        "e.g. Icecat 'attrs'; keys without a section go to 'Specifications'.",
    )

    _source: str = PrivateAttr("<options>")

    @field_validator("range", "price", mode="before")
    @classmethod
    def _column_shorthand(cls, v: Any) -> Any:
        return {"column": v} if isinstance(v, str) else v

    @field_validator("categories", mode="before")
    @classmethod
    def _categories_shorthand(cls, v: Any) -> Any:
        if v is None:
            return []
        items = v if isinstance(v, list) else [v]
        return [{"column": i} if isinstance(i, str) else i for i in items]

    @field_validator("specs", mode="before")
    @classmethod
    def _specs_shorthand(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        return {str(k): ({"entry": t} if isinstance(t, str) else t) for k, t in v.items()}

    @property
    def source(self) -> str:
        """The mapping file this came from (or ``<options>``), for error messages."""
        return self._source

    def column_uses(self) -> dict[str, str]:
        """Every column the mapping reads -> the mapping field that reads it.

        >>> TableMapping(name="model", price="p", specs={"ram": "Memory:RAM"}).column_uses()
        {'model': 'name', 'p': 'price.column', 'ram': 'specs.ram'}
        """
        uses: dict[str, str] = {self.name: "name"}

        def add(col: str | None, where: str) -> None:
            if col is not None:
                uses.setdefault(col, where)

        add(self.range.column if self.range else None, "range.column")
        for i, c in enumerate(self.categories):
            add(c.column, f"categories[{i}].column")
        add(self.brand, "brand")
        add(self.model_code, "model_code")
        add(self.price.column if self.price else None, "price.column")
        if self.group_by not in ("range", "name"):
            add(self.group_by, "group_by")
        for key, target in self.specs.items():
            if target is not None and target.columns is not None:
                for i, col in enumerate(target.columns):
                    add(col, f"specs.{key}.columns[{i}]")
            else:
                add(key, f"specs.{key}")
        for i, col in enumerate(self.text):
            add(col, f"text[{i}]")
        add(self.specs_from, "specs_from")
        return uses

    def check_columns(self, header: Iterable[str], *, data_file: str) -> None:
        """Raise :class:`MappingError` naming the mapping and the first column the data lacks."""
        have = set(header)
        for col, where in self.column_uses().items():
            if col not in have:
                shown = ", ".join(sorted(have)[:40]) + (" ..." if len(have) > 40 else "")
                raise MappingError(self._source, where, f"column {col!r} is not in {data_file} (columns: {shown})")


def _errors(e: ValidationError) -> tuple[str, str]:
    errs = e.errors()
    where = ".".join(str(p) for p in errs[0]["loc"]) or "mapping"
    reason = "; ".join(f"{'.'.join(str(p) for p in x['loc']) or 'mapping'}: {x['msg']}" for x in errs[:5])
    return where, reason


def mapping_from_dict(data: Any, *, source: str = "<options>") -> TableMapping:
    """Validate a mapping given as a dict; errors are :class:`MappingError` naming ``source``.

    >>> m = mapping_from_dict({"name": "model", "categories": {"value": "phones"},
    ...                        "specs": {"ram_gb": {"entry": "RAM", "unit": "GB"}}})
    >>> m.categories[0].value, m.specs["ram_gb"].entry
    ('phones', 'Specifications:RAM')
    """
    if not isinstance(data, dict):
        raise MappingError(source, "mapping", f"expected a mapping object, got {type(data).__name__}")
    try:
        mapping = TableMapping.model_validate(data)
    except ValidationError as e:
        raise MappingError(source, *_errors(e)) from e
    mapping._source = source
    return mapping


def load_mapping(path: str | Path) -> TableMapping:
    """Read a YAML mapping file; errors are :class:`MappingError` naming the file and field."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise MappingError(str(path), "file", f"cannot read mapping: {e}") from e
    except yaml.YAMLError as e:
        raise MappingError(str(path), "file", f"not valid YAML: {e}") from e
    return mapping_from_dict(data, source=str(path))


# --------------------------------------------------------------------------- CLI options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``dualgraph import-table``: a mapping file, or the mapping as options."""
    parser.add_argument("source", nargs="+", help="CSV/TSV, Parquet or JSON Lines file(s), one row per variant")
    parser.add_argument("--out", required=True, help="dataset directory to write")
    parser.add_argument("--mapping", help="YAML mapping file (see dualgraph.corpus.mapping)")
    parser.add_argument("--name", help="column with the variant name (without --mapping)")
    parser.add_argument("--range", dest="range_column", help="column with the product range")
    parser.add_argument("--range-strip", help="regex removed from the range text")
    parser.add_argument("--category", action="append", default=[], help="constant category (repeatable)")
    parser.add_argument("--category-column", action="append", default=[], help="category column (repeatable)")
    parser.add_argument("--brand", help="column written as Specifications:Brand")
    parser.add_argument("--price", help="price column")
    parser.add_argument("--currency", help="ISO code of bare price numbers, e.g. INR")
    parser.add_argument("--group-by", default="range", help="'range', 'name' or a column (default: range)")
    parser.add_argument("--spec", action="append", default=[], metavar="COL=Section:Entry", help="map a column")
    parser.add_argument("--unit", action="append", default=[], metavar="COL=UNIT", help="unit for a --spec column")
    parser.add_argument("--unmapped", choices=["keep", "drop"], default="keep", help="other columns (default keep)")
    parser.add_argument("--text", action="append", default=[], help="prose column for the page text (repeatable)")
    parser.add_argument("--specs-from", help="column holding a spec object (e.g. Icecat attrs)")
    parser.add_argument("--chunk-chars", type=int, default=5000, help="Markdown chunk size cap")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def _pairs(items: list[str], flag: str) -> dict[str, str]:
    out = {}
    for item in items:
        col, sep, val = item.partition("=")
        if not sep or not col or not val:
            raise MappingError("<options>", flag, f"expected COL=VALUE, got {item!r}")
        out[col] = val
    return out


def mapping_from_args(args: argparse.Namespace) -> TableMapping:
    """The mapping from ``--mapping`` or from the options; both at once is an error."""
    inline = args.name or args.spec or args.category or args.category_column or args.price or args.brand
    if args.mapping:
        if inline:
            raise MappingError(args.mapping, "options", "give either --mapping or the mapping options, not both")
        return load_mapping(args.mapping)
    if not args.name:
        raise MappingError("<options>", "name", "--mapping or --name is required")
    units, entries = _pairs(args.unit, "--unit"), _pairs(args.spec, "--spec")
    if set(units) - set(entries):
        raise MappingError("<options>", "--unit", f"no --spec for column(s) {sorted(set(units) - set(entries))}")
    specs = {c: {"entry": e, **({"unit": units[c]} if c in units else {})} for c, e in entries.items()}
    data: dict[str, Any] = {
        "name": args.name,
        "group_by": args.group_by,
        "unmapped": args.unmapped,
        "specs": specs,
        "categories": [{"value": c} for c in args.category] + args.category_column,
        "text": args.text,
        "brand": args.brand,
        "specs_from": args.specs_from,
    }
    if args.range_column:
        data["range"] = {"column": args.range_column, "strip": args.range_strip}
    if args.price:
        data["price"] = {"column": args.price, "currency": args.currency}
    return mapping_from_dict(data)
