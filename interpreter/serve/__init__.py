"""``tricklang serve``: a table in the browser for any rule file.

- :mod:`.views`: what each page receives (a seat's view built from
  ``observation(seat)``, the public view for spectators, the referee's view);
- :mod:`.tables`: tables, seats, links' tokens, and who may do what (:class:`Table`,
  :class:`TableManager`);
- :mod:`.storage`: each table on disk after every action;
- :mod:`.games`: the bundled games and uploaded rule files for new tables;
- :mod:`.app`: the web application (Starlette; needs the ``serve`` extra), with the
  pages in ``static/``.

Only :mod:`.app` needs Starlette: the others run on the runtime alone.
"""
