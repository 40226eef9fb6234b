"""Figure set-up shared by every plot: Agg backend, a CJK font when the machine has one, saving.

Without a CJK font the Chinese is dropped from plot text (and 戙 becomes 'dong') rather than
drawn as empty boxes; PNGs carry no date metadata so the same results give the same bytes.
"""
from __future__ import annotations

from pathlib import Path

UNIT = "戙"
_CJK_NAMES = ("WenQuanYi", "Noto Sans CJK", "Noto Serif CJK", "Source Han", "PingFang", "Microsoft YaHei",
              "SimHei", "Heiti", "Droid Sans Fallback")
_CJK_FONT: list[str | None] = []


def cjk_font() -> str | None:
    """Name of a font that can draw 戙 / 至尊, found once (None if the machine has none)."""
    if _CJK_FONT:
        return _CJK_FONT[0]
    from matplotlib import font_manager  # noqa: PLC0415

    def find() -> str | None:
        """First installed font whose name marks CJK coverage."""
        return next((f.name for f in font_manager.fontManager.ttflist
                     if any(s in f.name for s in _CJK_NAMES)), None)

    name = find()
    if name is None:
        # a font installed after matplotlib built its cache is not listed yet
        for path in font_manager.findSystemFonts():
            if any(s in path.lower() for s in ("wqy", "cjk", "sourcehan", "droidsansfallback")):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        name = find()
    _CJK_FONT.append(name)
    return name


def pyplot():
    """matplotlib.pyplot on the Agg backend with a CJK-capable font family."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import logging  # noqa: PLC0415

    import matplotlib.pyplot as plt  # noqa: PLC0415

    # some CJK fonts come only in weight 500; matplotlib would log that on every text it draws
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)

    font = cjk_font()
    plt.rcParams["font.family"] = [font, "DejaVu Sans"] if font else ["DejaVu Sans"]
    plt.rcParams["axes.unicode_minus"] = False
    return plt


def plot_text(text: str) -> str:
    """Plot text as is when a CJK font exists, else with the Chinese dropped (no empty boxes)."""
    if cjk_font():
        return text
    import re  # noqa: PLC0415

    out = re.sub(r"[\u3000-\u9fff\uff00-\uffef]+", "", text.replace("戙", "dong"))
    return re.sub(r"\(\s*[/+ ]*\s*\)|\s{2,}", " ", out).strip()


def unit_label() -> str:
    """'戙' when a CJK font can draw it, else 'dong'."""
    return UNIT if cjk_font() else "dong"


def save_figure(fig, path: Path, rect: tuple[float, float, float, float] = (0, 0, 1, 1)) -> None:
    """Lay out, save as PNG (dpi 110, no metadata) and close `fig`."""
    fig.tight_layout(rect=rect)
    # no Software/date metadata: the same results give byte-identical PNGs
    fig.savefig(path, dpi=110, metadata={"Software": None})
    import matplotlib.pyplot as plt  # noqa: PLC0415

    plt.close(fig)


def finish(fig, title: str, path: Path, on=None, fontsize: float = 10,
           rect: tuple[float, float, float, float] = (0, 0, 1, 1)) -> str:
    """Put `title` over the figure (or over axes `on`), save the figure as `save_figure` does; returns the title."""
    if on is None:
        fig.suptitle(plot_text(title), fontsize=fontsize)
    else:
        on.set_title(plot_text(title), fontsize=fontsize)
    save_figure(fig, path, rect)
    return title


def ci_errors(mean, low, high) -> list:
    """matplotlib's asymmetric error bars for a 95% interval [low, high] around `mean`."""
    return [mean - low, high - mean]
