"""Ferri, Hernández-Orallo & Flach (2019), Sect. 6, with Weka's own learners: the threshold study of
:mod:`credalbook.book.experiments.thresholds` re-run with the paper's twelve model types as Weka builds them.

The paper (Table 6) runs every model type "included in the RWeka package ... with default
parameters (unless stated otherwise)", and states two exceptions: J48Unp is "J48 decision tree
without pruning but with Laplace correction" and SVMp "support vector machines computing output
probabilities". The authors' R code (``Uncertainty/experiments_binomial_v72.R`` in their
repository) says how: ``J48(..., control = Weka_control(U = TRUE, A = TRUE))``,
``SMO(..., control = Weka_control(M = TRUE))``, ``IBk(..., control = Weka_control(K = 10))`` and
``K = 1``, and the other learners without a control. :data:`WEKA_MODELS` holds these classes and
options; :func:`fit_scores_weka` fits one of them through
:class:`credalbook.weka.WekaClassifier` (nominal attributes stay nominal, missing values stay
missing for Weka to handle) and scores with Weka's probability of class 1 (the majority class).
As in the R code, IBK1 scores with its predicted class (0 or 1) rather than with IBk's
distribution, which adds 1/n to every class; SMO without ``-M`` already gives 0/1. Prior and Random
need no learner and are scored as in :func:`credalbook.book.experiments.thresholds.fit_scores`.

The protocol (binary task, stratified 50/50 splits with seeds 1..10, the four threshold choice
methods and seven certainty levels) is the scikit-learn arm's, imported from
:mod:`credalbook.book.experiments.thresholds`; only the learners change. The class attribute is
declared with the values 0 and 1 in that order, where the R code keeps the order of the ARFF file
(it only decides ties, e.g. IBk's equidistant neighbours). Weka is the optional extra
``credalbook[weka]``; every worker process of the grid starts its own JVM once, at its first task.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from credalbook.book.experiments.registry import Experiment, register
from credalbook.book.experiments.thresholds import (BASELINES, GAMMAS, MODELS, SPLITS, STUDY, _model_seed, binary_task,
                                               evaluate_scores, fit_scores, split, split_rows, split_rows_authors)

__all__ = ["WEKA_MODELS", "SEED_OPTIONS", "weka_options", "fit_scores_weka", "model_scores_weka", "run_split_weka",
           "STUDY_WEKA", "ARMS", "run_split_weka_authors", "STUDY_WEKA_AUTHORS", "task_as_authors", "leak_rows", "IDENTIFIER_MODELS",
           "run_split_with_identifier", "STUDY_MUSK1_IDENTIFIER", "identifier_reading"]

#: The paper's learners as Weka classes and options (Ferri et al. 2019, §6, Table 6; RWeka's defaults otherwise).
WEKA_MODELS = {
    # Table 6 "k-Nearest Neighbours (k = 1)"; R code IBk(K = 1), scored by its predicted class
    "IBK1": ("weka.classifiers.lazy.IBk", ("-K", "1")),
    # Table 6 "k-Nearest Neighbours (k = 10)"; R code IBk(K = 10)
    "IBK10": ("weka.classifiers.lazy.IBk", ("-K", "10")),
    # Table 6 "J48 decision tree with pruning": the defaults (-C 0.25 -M 2), R code J48() without control
    "J48": ("weka.classifiers.trees.J48", ()),
    # Table 6 "J48 decision tree without pruning but with Laplace correction"; R code J48(U = TRUE, A = TRUE)
    "J48Unp": ("weka.classifiers.trees.J48", ("-U", "-A")),
    # Table 6 "Logistic Regression": Weka's Logistic with its defaults (ridge 1e-8), R code Logistic()
    "Logist": ("weka.classifiers.functions.Logistic", ()),
    # Table 6 "Naive Bayes": Weka's NaiveBayes with its defaults (normal densities), R code NaiveBayes()
    "NB": ("weka.classifiers.bayes.NaiveBayes", ()),
    # Table 6 "Part decision lists": Weka's PART with its defaults (-C 0.25 -M 2), R code PART()
    "PART": ("weka.classifiers.rules.PART", ()),
    # Table 6 "Decision stump": Weka's DecisionStump, R code DecisionStump()
    "Stump": ("weka.classifiers.trees.DecisionStump", ()),
    # Table 6 "Support vector machines computing output probabilities"; R code SMO(M = TRUE)
    "SVMp": ("weka.classifiers.functions.SMO", ("-M",)),
    # Table 6 "Support vector machines outputting crisp scores (0 or 1)"; R code SMO() with its defaults
    "SVM": ("weka.classifiers.functions.SMO", ()),
}
#: The random-seed option of each learner that has one; the study leaves them at Weka's defaults.
#:
#: SMO shuffles its training data with its seed, so the weights its optimiser stops at (within its
#: tolerance, 10⁻³) and hence SVM's and SVMp's scores depend on it slightly; the paper ran
#: RWeka's default seed 1 for every split, and so does the study (``weka_seed=None``). PART's seed shuffles the data for reduced-error pruning only,
#: which the paper's options leave off, so its scores do not depend on it. J48 has a seed too, but
#: refuses one without reduced-error pruning.
SEED_OPTIONS = {"PART": "-Q", "SVMp": "-W", "SVM": "-W"}


def weka_options(model: str, seed: int | None = None) -> list[str]:
    """The options of model type ``model`` (:data:`WEKA_MODELS`), with its random seed (:data:`SEED_OPTIONS`) set to
    ``seed`` unless it is None (Weka's default seed, as the paper ran)."""
    if model not in WEKA_MODELS:
        raise ValueError(f"model must be one of {', '.join(WEKA_MODELS)} (Prior and Random have no Weka learner); "
                         f"got {model!r}")
    options = list(WEKA_MODELS[model][1])
    if model in SEED_OPTIONS and seed is not None:
        options += [SEED_OPTIONS[model], str(int(seed))]
    return options


def fit_scores_weka(model: str, X_train: pd.DataFrame, y_train: np.ndarray, X_test: pd.DataFrame, seed: int,
                    weka_seed: int | None = None):
    """Weka's probability of class 1 for the training and the test instances, arrays of shapes
    (n_train,) and (n_test,), after fitting model type ``model`` (one of
    :data:`credalbook.book.experiments.thresholds.MODELS`) on the training instances.

    ``seed`` draws the Random baseline's scores; ``weka_seed`` is the learners' own seed (None:
    Weka's default, the paper's protocol)."""
    from credalbook.weka import WekaClassifier

    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}; got {model!r}")
    if model in BASELINES:
        return fit_scores(model, X_train, y_train, X_test, seed)
    y = np.asarray(y_train)
    if not np.isin(y, (0, 1)).all():
        raise ValueError("y_train must hold the classes 0 and 1")
    labels = pd.Categorical(y.astype(np.int64), categories=[0, 1])
    classifier = WekaClassifier(WEKA_MODELS[model][0], weka_options(model, weka_seed)).fit(X_train, labels)
    scores = []
    for X in (X_train, X_test):
        proba = classifier.predict_proba(X)
        if model == "IBK1":  # the R code: 1 where IBk predicts class 1 (ties go to class 0, Weka's first)
            scores.append((np.argmax(proba, axis=1) == 1).astype(float))
        else:
            scores.append(proba[:, 1])
    return scores[0], scores[1]


def model_scores_weka(dataset: str, model: str, seed: int = 1, train_fraction: float = 0.5):
    """(y_train, s_train, y_test, s_test) of one Weka model on one split of one dataset."""
    X, y = binary_task(dataset)
    train, test = split(y, seed, train_fraction)
    s_train, s_test = fit_scores_weka(model, X.iloc[train], y[train], X.iloc[test], seed=_model_seed(dataset, seed))
    return y[train], s_train, y[test], s_test


def run_split_weka(dataset: str, seed: int) -> pd.DataFrame:
    """All 12 model types, Weka's learners, on one stratified 50/50 split of one dataset (a grid task)."""
    return split_rows(dataset, seed, fit_scores_weka)


def _weka_versions() -> dict:
    from credalbook.weka import versions

    return versions()


#: 26 datasets x 12 Weka models x 10 splits, 4 methods x 7 concentrations (Ferri et al. 2019, §6).
#:
#: The stand-ins' study with Weka's learners: the same grid, ci subset, keys and two workers (each loky
#: worker starts its own JVM at its first task and keeps it for the tasks that follow).
STUDY_WEKA = register(replace(
    STUDY, name="ferri2019_thresholds_weka",
    description="Ferri et al. (2019) with Weka's learners: 26 datasets x 12 models x 10 splits, 4 methods x 7 gammas",
    task=run_split_weka, software=_weka_versions, _checked={}))

#: The two arms of the study by the names the pages give them, the paper's own learners first, then the stand-ins.
#:
#: Each is an experiment whose ``results(profile)`` gives its rows, so that a page reads both as
#: ``{name: study.results(profile) for name, study in ARMS.items()}`` and hands the mapping to
#: :func:`~credalbook.book.experiments.thresholds.plot_loss_by_certainty` or
#: :func:`~credalbook.book.experiments.thresholds.plot_runs`.
ARMS = {"Weka's learners": STUDY_WEKA, "scikit-learn stand-ins": STUDY}


def run_split_weka_authors(dataset: str, seed: int) -> pd.DataFrame:
    """:func:`run_split_weka` with the authors' reading of the threshold choice methods beside the book's
    (:func:`~credalbook.book.experiments.thresholds.split_rows_authors`): a grid task."""
    return split_rows_authors(dataset, seed, fit_scores_weka)


#: The Weka arm with the authors' reading (Ferri et al. 2019's R code, ``ThresMin``'s first least-loss cost line,
#: a 1000-point grid of c and one draw of ĉ per point) beside the book's exact convention, on the same scores.
#:
#: A reading, never the book's numbers: the columns of
#: :data:`~credalbook.book.experiments.thresholds.AUTHORS_METHODS` are added to the rows of
#: :data:`STUDY_WEKA`'s task, so that both conventions are compared on identical scores.
STUDY_WEKA_AUTHORS = register(replace(
    STUDY_WEKA, name="ferri2019_thresholds_weka_authors",
    description="Ferri et al. (2019) with Weka's learners, the threshold methods also as the authors' R code computes them",
    task=run_split_weka_authors, _checked={}))


def task_as_authors(name: str):
    """(X, y) of a Ferri et al. dataset with every attribute of its file, as the authors' R code fits
    ``class ~ .`` on it: :func:`~credalbook.book.experiments.thresholds.binary_task` with the columns the
    registry drops put back (musk1's ``molecule_name``, an identifier that the conformations of a molecule
    share with their class). Reads the book's copy of the file (``data/raw/``, sha256 checked)."""
    import hashlib

    from credalbook import data

    X, y = binary_task(name)
    registry = data.registry()
    entry = registry[(registry["group"] == "ferri2019") & (registry["name"] == name)]
    if entry.empty:
        raise ValueError(f"{name!r} is not a dataset of ferri2019")
    entry = entry.iloc[0]
    dropped = [c.strip() for c in entry["drop"].split(";") if c.strip()]
    if not dropped:
        return X, y
    folder = data.repository_dir()
    if folder is None:
        raise FileNotFoundError("the file with the dropped columns is read from the book's data/raw: run from a clone")
    path = folder / entry["files"]
    if hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
        raise ValueError(f"{entry['files']}: sha256 differs from the registry's")
    table = data.read_arff(path)
    if len(table) != len(X) or table[entry["class_attribute"]].isna().any():
        raise ValueError(f"{name}: the file's rows do not line up with the loaded dataset's")
    full = table.drop(columns=entry["class_attribute"]).reset_index(drop=True)
    if list(full.drop(columns=dropped).columns) != list(X.columns):
        raise ValueError(f"{name}: the file's columns less {dropped} are not the loaded dataset's")
    return full, y


#: The model types whose train-optimal loss stays furthest above Table 7 on Weka's learners.
IDENTIFIER_MODELS = ("J48", "J48Unp", "Logist", "SVM", "SVMp")


def leak_rows(name: str = "musk1", models=IDENTIFIER_MODELS, gammas=GAMMAS,
              seeds=range(1, SPLITS + 1)) -> pd.DataFrame:
    """Rows of :data:`STUDY_WEKA`'s form for ``models`` on dataset ``name`` fitted on every attribute of its file
    (:func:`task_as_authors`), on the study's splits: the measured hypothesis that the paper's learners saw the
    columns the book drops (on musk1, ``molecule_name``)."""
    X, y = task_as_authors(name)
    rows = []
    for seed in seeds:
        train, test = split(y, seed)
        for model in models:
            s_train, s_test = fit_scores_weka(model, X.iloc[train], y[train], X.iloc[test], seed=_model_seed(name, seed))
            for row in evaluate_scores(y[train], s_train, y[test], s_test, gammas=gammas):
                rows.append({"dataset": name, "split": seed, "model": model, **row})
    return pd.DataFrame(rows)


def run_split_with_identifier(seed: int) -> pd.DataFrame:
    """One split of musk1 with its identifier ``molecule_name`` kept (:func:`leak_rows`): a grid task."""
    return leak_rows("musk1", seeds=[seed])


#: musk1 as the authors' R code fits it, ``class ~ .`` on the whole file with ``molecule_name`` included.
#:
#: The five model types of :data:`IDENTIFIER_MODELS` with Weka's learners on the study's ten splits. A measured hypothesis
#: about the paper's Table 7, never the book's numbers (the book drops the identifier, see the datasets page).
STUDY_MUSK1_IDENTIFIER = register(Experiment(
    name="ferri2019_musk1_identifier",
    description="Ferri et al. (2019), musk1 with molecule_name kept, as the authors' R code fits it: 5 Weka models x 10 splits",
    task=run_split_with_identifier,
    grid=lambda: [{"seed": s} for s in range(1, SPLITS + 1)],
    ci=lambda config: config["seed"] == 1,
    keys=("dataset", "split", "model", "gamma"),
    columns=(),
    version="1",
    options={"n_jobs": 1},
    software=_weka_versions,
))


def identifier_reading(weka: pd.DataFrame, identifier: pd.DataFrame, gamma=np.inf) -> pd.DataFrame:
    """Table 7's train-optimal column for the models of ``identifier`` (rows of :data:`STUDY_MUSK1_IDENTIFIER`): the
    paper's, the book's on Weka's learners (``weka``, rows of :data:`STUDY_WEKA`) and the same with musk1's rows of
    those models and splits replaced by ``identifier``'s, means over datasets and splits at ``gamma``; one row per
    model."""
    from credalbook.book.experiments.thresholds import by_model
    from credalbook.book.reference import published

    models = sorted(set(identifier["model"]))
    if not models or set(identifier["dataset"]) != {"musk1"}:
        raise ValueError("identifier must hold rows of musk1 for at least one model")
    mine = weka[weka["model"].isin(models)]
    swapped = (mine["dataset"] == "musk1") & mine["split"].isin(set(identifier["split"]))
    replaced = pd.concat([mine[~swapped], identifier[mine.columns.intersection(identifier.columns)]], ignore_index=True)
    paper = published("ferri2019_table7").set_index("model")["train-optimal"].astype(float)
    book = by_model(mine, gamma).set_index("model")["train-optimal"]
    kept = by_model(replaced, gamma).set_index("model")["train-optimal"]
    return pd.DataFrame({"model": models, "paper": paper.reindex(models).to_numpy(),
                         "book": book.reindex(models).to_numpy(),
                         "musk1 with molecule_name": kept.reindex(models).to_numpy()})
