"""The temperature-scaled forest: the scaling formula, the fitted temperature, calibration on real data."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.classifiers.forest import TemperatureScaledForest, fit_temperature, temperature_scale


def test_temperature_scale_by_hand():
    # T = 10 trees, K = 2, shares (0.7, 0.3): smoothed (8/12, 4/12); tau = 1 gives them back
    out = temperature_scale([[0.7, 0.3]], 1.0, 10)
    assert out[0] == pytest.approx([8 / 12, 4 / 12])
    # tau = 1/2 squares the odds: 2^2 = 4, so (4/5, 1/5)
    assert temperature_scale([[0.7, 0.3]], 0.5, 10)[0] == pytest.approx([0.8, 0.2])


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(0.1, 10.0))
def test_temperature_keeps_the_order_and_sums_to_one(seed, tau):
    rng = np.random.default_rng(seed)
    shares = rng.dirichlet(np.ones(4), size=20)
    out = temperature_scale(shares, tau, 50)
    assert np.allclose(out.sum(axis=1), 1.0)
    smoothed_order = np.argsort(-(50 * shares + 1), axis=1, kind="stable")
    assert np.array_equal(np.argsort(-out, axis=1, kind="stable"), smoothed_order)


def test_fit_temperature_recovers_a_known_temperature():
    # labels drawn from the tau = 0.5 scaling of the shares: the fitted tau is near 0.5
    rng = np.random.default_rng(0)
    shares = rng.dirichlet(np.ones(3), size=20000)
    truth = temperature_scale(shares, 0.5, 100)
    labels = (rng.uniform(size=(20000, 1)) > truth.cumsum(axis=1)).sum(axis=1)
    assert fit_temperature(shares, labels, 100) == pytest.approx(0.5, abs=0.03)


def test_calibration_lowers_the_log_loss_on_letter():
    from credalbook.certainty import log_loss
    from credalbook.data import load

    data = load("letter", group="zaffalon2012")
    X, y = data.X.to_numpy(float)[:6000], data.y_codes[:6000]
    model = TemperatureScaledForest(n_estimators=50, random_state=0).fit(X[:4000], y[:4000])
    calibrated = model.predict_proba(X[4000:])
    raw = np.clip(model.forest_.predict_proba(X[4000:]), 1e-15, 1)
    assert model.temperature_ < 1  # a forest's votes are too cautious: sharpened
    assert log_loss(y[4000:], calibrated) < 0.8 * log_loss(y[4000:], raw / raw.sum(axis=1, keepdims=True))
    assert np.array_equal(model.predict(X[4000:]), model.classes_[np.argmax(raw, axis=1)])


class TestBadInput:
    def test_parameters(self):
        with pytest.raises(ValueError, match="n_estimators"):
            TemperatureScaledForest(n_estimators=2).fit([[0], [1]], [0, 1])
        with pytest.raises(ValueError, match="temperature"):
            temperature_scale([[0.5, 0.5]], 0.0, 10)

    def test_shares(self):
        with pytest.raises(ValueError, match="shares"):
            temperature_scale([[0.5, 0.6]], 1.0, 10)
