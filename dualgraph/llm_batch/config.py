"""The batch LLM stage's configuration, defined in :mod:`dualgraph.models.batch_config` (the models
config holds one) and named here too, where the stage's callers have always imported it."""

from dualgraph.models.batch_config import EngineOptions, LLMBatchConfig

__all__ = ["EngineOptions", "LLMBatchConfig"]
