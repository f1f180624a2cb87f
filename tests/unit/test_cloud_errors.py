"""SDK errors become one readable line: azure-ai-ml's messages start with colour codes and blank lines."""

from acpt_estimator.backends.azureml.client import _first_line


class _SdkError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def test_first_line_skips_colour_codes_and_blank_lines():
    err = _SdkError("\x1b[37m\n\x1b[30m\n1) Resource was not found.\x1b[39m\n\nDetails: ...")
    assert _first_line(err) == "1) Resource was not found."


def test_first_line_of_an_empty_message_is_the_class_name():
    assert _first_line(_SdkError("\x1b[37m\n")) == "_SdkError"
