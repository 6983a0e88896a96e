"""Inline SVG charts for the report, drawn by hand so the page needs nothing from outside."""

from __future__ import annotations

from html import escape

BAR_COLOR = "#3b6fb6"
SERIES_COLORS = ("#3b6fb6", "#d9822b", "#3a9a5b", "#b63b6f")


def bar_chart(title: str, rows: list[tuple[str, float, float, str]], width: int = 680) -> str:
    """Horizontal bars of rates in [0, 1]: rows of (label, value, standard error, note)."""
    label_width, row_height, top = 250, 26, 34
    plot = width - label_width - 110
    height = top + row_height * max(len(rows), 1) + 24
    parts = [_svg_open(width, height, title),
             f'<text x="0" y="18" class="chart-title">{escape(title)}</text>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = label_width + tick * plot
        parts.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{height - 20}" '
                     'class="grid"/>')
        parts.append(f'<text x="{x:.1f}" y="{height - 6}" class="tick" '
                     f'text-anchor="middle">{tick:.0%}</text>')
    for index, (label, value, se, note) in enumerate(rows):
        y = top + index * row_height
        bar = max(0.0, min(1.0, value)) * plot
        parts.append(f'<text x="{label_width - 8}" y="{y + 15}" text-anchor="end" '
                     f'class="label">{escape(_short(label, 34))}<title>{escape(label)}</title>'
                     '</text>')
        parts.append(f'<rect x="{label_width}" y="{y + 3}" width="{bar:.1f}" height="16" '
                     f'fill="{BAR_COLOR}" rx="2"><title>{escape(label)}: {value:.1%} '
                     f'± {se:.1%} {escape(note)}</title></rect>')
        if se > 0:
            low = label_width + max(0.0, value - se) * plot
            high = label_width + min(1.0, value + se) * plot
            parts.append(f'<line x1="{low:.1f}" y1="{y + 11}" x2="{high:.1f}" y2="{y + 11}" '
                         'class="whisker"/>')
        parts.append(f'<text x="{label_width + plot + 8}" y="{y + 15}" class="value">'
                     f'{value:.1%} <tspan class="note">{escape(note)}</tspan></text>')
    parts.append("</svg>")
    return "".join(parts)


def line_chart(title: str, series: dict[str, list[tuple[int, float]]],
               width: int = 680, height: int = 260) -> str:
    """Lines of rates in [0, 1] over integer x values (e.g. pass@k and pass^k over k)."""
    left, right, top, bottom = 50, 150, 34, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = sorted({x for points in series.values() for x, _ in points}) or [1]
    low, high = xs[0], xs[-1]

    def px(x: int) -> float:
        return left + (plot_w / 2 if high == low else (x - low) / (high - low) * plot_w)

    def py(y: float) -> float:
        return top + (1.0 - max(0.0, min(1.0, y))) * plot_h

    parts = [_svg_open(width, height, title),
             f'<text x="0" y="18" class="chart-title">{escape(title)}</text>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" y1="{py(tick):.1f}" x2="{left + plot_w}" '
                     f'y2="{py(tick):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{py(tick) + 4:.1f}" text-anchor="end" '
                     f'class="tick">{tick:.0%}</text>')
    for x in xs:
        parts.append(f'<text x="{px(x):.1f}" y="{height - bottom + 18}" text-anchor="middle" '
                     f'class="tick">{x}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle" '
                 'class="tick">k</text>')
    for index, (name, points) in enumerate(series.items()):
        color = SERIES_COLORS[index % len(SERIES_COLORS)]
        coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        dash = ' stroke-dasharray="6 4"' if index % 2 else ""
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{color}" '
                     f'stroke-width="2"{dash}/>')
        for x, y in points:
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{color}">'
                         f'<title>{escape(name)} k={x}: {y:.1%}</title></circle>')
        legend_y = top + 14 + index * 18
        parts.append(f'<rect x="{left + plot_w + 16}" y="{legend_y - 9}" width="12" '
                     f'height="12" fill="{color}"/><text x="{left + plot_w + 34}" '
                     f'y="{legend_y + 1}" class="label">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _svg_open(width: int, height: int, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(title)}">')


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
