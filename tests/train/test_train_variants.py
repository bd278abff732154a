"""Training keeps out of the held-out variant bands (issue 45; gym_core/heldout_variants.py): GRPO's --variant refuses a
held-out value by name before anything loads and narrows "random" to the train bands, its rollouts are shown in that
variant, and SFT refuses a dataset whose samples were shown in a held-out value, each unless asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_harness.train.config import GRPORunConfig, SFTRunConfig
from gym_core.heldout_variants import heldout_bands, heldout_named, train_bands, training_variant
from gym_core.variant import AXES, SPLITS, draw_variant


def test_held_out_values_are_refused_and_random_draws_the_train_band():
    with pytest.raises(ValueError, match=r"zoom=1\.5 are held out.*--allow-heldout-variant"):
        training_variant("zoom=1.5")
    with pytest.raises(ValueError, match="locale=de-DE"):
        training_variant("theme=dark,locale=de-DE")
    with pytest.raises(ValueError, match="theme=contrast"):
        training_variant("theme=light|contrast")  # a list that reaches into the held-out band
    assert training_variant("zoom=1.5", allow_held_out=True).zoom == 1.5
    assert training_variant(None) is None
    spec = training_variant("random")
    for axis, band in train_bands().items():
        assert getattr(spec, axis) == band, axis
    assert spec.density == "random"  # an axis without a split stays as asked
    assert training_variant("zoom=0.8,theme=dark").named() == {"zoom": 0.8, "theme": "dark"}


def test_an_episode_label_names_its_held_out_values():
    assert heldout_named("default") == [] and heldout_named("") == []
    assert heldout_named("look=outlook,zoom=0.8,locale=en-GB") == []
    assert sorted(heldout_named("zoom=0.67,locale=de-DE,overlays=mid")) == ["locale=de-DE", "overlays=mid",
                                                                             "zoom=0.67"]


@settings(max_examples=60, deadline=None)
@given(key=st.text(min_size=1, max_size=12), app=st.sampled_from(["mail", "food", "crm"]), second=st.booleans())
def test_what_training_draws_from_random_is_never_held_out(key, app, second):
    """Whatever episode key draws it, in any app and look, the trained variant shows no held-out value."""
    from apps import app_looks

    drawn = draw_variant(training_variant("random"), app, app_looks(app)[int(second)], key)
    held = heldout_bands()
    for axis in SPLITS:
        value = getattr(drawn, axis)
        assert not any(value == h for h in held[axis]), (axis, value, AXES[axis].values)


def test_grpo_refuses_a_held_out_variant_before_anything_loads_and_sft_a_held_out_sample(tmp_path):
    with pytest.raises(ValueError, match="held out"):
        GRPORunConfig(model="m", out=Path("o"), variant="locale=de-DE").resolved()
    with pytest.raises(ValueError, match="tool-mode rollouts have none"):
        GRPORunConfig(model="m", out=Path("o"), mode="tools", variant="zoom=0.8").resolved()
    assert GRPORunConfig(model="m", out=Path("o"), variant="zoom=1.5", allow_heldout_variant=True).resolved()

    import datasets

    from agent_harness.train import run_sft

    rows = {"variant": ["default", "zoom=1.5"], "look": ["", ""], "messages": ["[]", "[]"]}
    datasets.DatasetDict({"train": datasets.Dataset.from_dict(rows)}).save_to_disk(tmp_path / "ds")
    with pytest.raises(ValueError, match=r"held-out variant values \(zoom=1\.5"):
        run_sft(SFTRunConfig(dataset=tmp_path / "ds", model="no-model-needed", out=tmp_path / "out"))


def test_a_rollout_is_shown_in_the_trained_variant():
    """The screen rollout env (TRL's environment class) resets in the variant GRPO hands it."""
    from agent_harness.train.env import EnvSettings, UIGymToolEnv, close_runtimes
    from tasks import load_task

    task = load_task("mail/add-contact-00")
    env = UIGymToolEnv(EnvSettings(max_pixels=28 * 28 * 256, variant=training_variant("zoom=0.8,theme=dark")))
    try:
        env.reset(task=task.model_dump_json())
        info = env._env.variant_info()
        assert info["zoom"] == 0.8 and info["theme"] == "dark", info
    finally:
        env._close()
        close_runtimes()
