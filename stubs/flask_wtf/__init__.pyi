"""Flask-WTF 1 ships no type information: the names the app uses, typed from its source."""

from flask_wtf.csrf import CSRFProtect as CSRFProtect
from flask_wtf.form import FlaskForm as FlaskForm
