"""Bot suggestions over HTTP: routes added by the bots work (issue 4).

create_app registers `bp` under /v1.
"""

from flask import Blueprint

bp = Blueprint("suggest", __name__)
