"""The book's matplotlib style: figures at reading size."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from credalbook import style  # noqa: E402
from credalbook.display import CriticalDifferenceDisplay, ProbabilisticConfusionMatrixDisplay  # noqa: E402


def test_use_applies_the_style_and_the_colour_cycle():
    with matplotlib.rc_context():
        style.use()
        assert matplotlib.rcParams["font.size"] == 11
        assert tuple(matplotlib.rcParams["figure.figsize"]) == (style.COLUMN_WIDTH, 4.0)
        colours = [c["color"] for c in matplotlib.rcParams["axes.prop_cycle"]]
        assert colours == list(style.COLOURS)


def _text_sizes(figure):
    return [t.get_fontsize() for t in figure.findobj(matplotlib.text.Text) if t.get_text()]


def test_displays_fit_the_column_with_labels_of_at_least_ten_points():
    with matplotlib.rc_context():
        style.use()
        scores = pd.DataFrame({"NBC": [0.8, 0.7, 0.9, 0.6], "NCC": [0.82, 0.71, 0.88, 0.65], "LNCC": [0.7, 0.6, 0.8, 0.5]})
        cd = CriticalDifferenceDisplay.from_scores(scores)
        matrix = ProbabilisticConfusionMatrixDisplay.from_predictions([0, 1, 1], [[0.7, 0.3], [0.4, 0.6], [0.2, 0.8]])
        for figure in (cd.figure_, matrix.figure_):
            assert figure.get_size_inches()[0] <= style.COLUMN_WIDTH + 1e-9
            assert min(_text_sizes(figure)) >= 10
        plt.close("all")
