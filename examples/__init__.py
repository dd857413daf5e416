"""More games as rule files (and an embedding example).

This folder is installed as ``tricklang.examples`` (see ``pyproject.toml``), so that
``tricklang.load("euchre")`` finds its rule files in a wheel and in an editable install
alike; :mod:`tricklang.catalog` lists the bundled games.
"""
