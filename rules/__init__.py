"""The rule files of Écarté and Cinch and their laws table (laws.md).

This folder is installed as ``tricklang.rules`` (package data only: see
``pyproject.toml``), so that ``tricklang.load("ecarte")`` finds it in a wheel and in an
editable install alike; :mod:`tricklang.catalog` lists the bundled games.
"""
