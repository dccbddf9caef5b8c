"""The Hermes-independent half of engram's Hermes memory provider: configuration, the HTTP client
of `engram serve`, the circuit breaker, the durable journal and its sender, the local server, and
the text the provider hands to Hermes. Standard library only; nothing here imports Hermes.

A subpackage (not sibling modules of the plugin's `__init__.py`): Hermes 0.19's loader executes
every sibling `*.py` of a plugin's `__init__.py` before the plugin itself.
"""
