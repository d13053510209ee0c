"""The plain-text table of Graph.print_tabular.

torch.fx prints the table with the ``tabulate`` package's default ("simple") format; this is
that format, so opscope needs no extra package: columns two spaces apart, each as wide as its
widest cell and at least its header plus two, a row of dashes under the header, text cells
left-aligned and numeric columns right-aligned, cells stripped of surrounding blanks, and no
trailing blanks on a line.
"""


def _is_number(text):
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def simple_table(rows, headers):
    """rows: lists of cells (any objects, printed with str()); headers: column titles."""
    cells = [[str(c).strip() for c in row] for row in rows]
    columns = list(zip(*cells)) if cells else [() for _ in headers]
    widths, numeric = [], []
    for header, column in zip(headers, columns):
        widths.append(max([len(header) + 2] + [len(c) for c in column]))
        numeric.append(bool(column) and all(_is_number(c) for c in column))

    def line(values):
        padded = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(padded).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(row) for row in cells]
    return "\n".join(out)
