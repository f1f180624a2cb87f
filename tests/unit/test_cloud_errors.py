"""SDK errors become one readable line: azure-ai-ml's messages start with colour codes and blank lines."""

import pytest

from acpt_estimator.backends.azureml.client import first_line, readable


class _SdkError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def test_first_line_skips_colour_codes_and_blank_lines():
    err = _SdkError("\x1b[37m\n\x1b[30m\n1) Resource was not found.\x1b[39m\n\nDetails: ...")
    assert first_line(err) == "1) Resource was not found."


def test_first_line_of_an_empty_message_is_the_class_name():
    assert first_line(_SdkError("\x1b[37m\n")) == "_SdkError"


def test_an_sdk_validation_error_keeps_what_is_wrong_and_how_to_fix_it():
    from azure.ai.ml._exception_helper import format_create_validation_error  # the SDK's own formatter
    from azure.ai.ml.exceptions import ErrorTarget, ValidationErrorType, ValidationException

    err = ValidationException(message="Can't find directory or file in resolved absolute path: /x/src.",
                              no_personal_data_message="x", target=ErrorTarget.CODE,
                              error_type=ValidationErrorType.FILE_OR_FOLDER_NOT_FOUND)
    text = readable(_SdkError(format_create_validation_error(err, yaml_operation=False)))
    assert text == ("1) One or more files or folders do not exist. (x) Can't find directory or file in resolved "
                    "absolute path: /x/src. Resolutions: 1) Double-check the directory path you provided and "
                    "enter the correct path.")


@pytest.mark.parametrize("message, expected", [
    ("(UserError) Compute c1 is not found.\nCode: UserError\nMessage: Compute c1 is not found.",
     "(UserError) Compute c1 is not found."),
    ("\x1b[31m" + "x" * 700, "x" * 597 + "..."),
])
def test_service_errors_drop_the_repeated_code_and_long_ones_are_clipped(message, expected):
    assert readable(_SdkError(message)) == expected


def test_an_sdk_validation_error_inside_a_cloud_call_is_a_user_error_naming_the_action():
    from azure.ai.ml.exceptions import ValidationException

    from acpt_estimator.backends.azureml.client import azure_errors
    from acpt_estimator.exceptions import UserErrorException

    with pytest.raises(UserErrorException) as info:
        with azure_errors(object(), "register model 'mnist'"):
            raise ValidationException(message="\x1b[31mModel path outputs/m.pt is not valid\x1b[39m\n",
                                      no_personal_data_message="x")
    assert info.value.message == "Azure ML could not register model 'mnist': Model path outputs/m.pt is not valid"
