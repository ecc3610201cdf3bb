from wtforms import Field
from wtforms import FileField as _FileField
from wtforms.form import BaseForm
from wtforms.validators import DataRequired

class FileField(_FileField): ...

class FileRequired(DataRequired):
    def __call__(self, form: BaseForm, field: Field) -> None: ...

class FileSize:
    max_size: int
    min_size: int
    message: str | None
    def __init__(self, max_size: int, min_size: int = 0, message: str | None = None) -> None: ...
    def __call__(self, form: BaseForm, field: Field) -> None: ...
