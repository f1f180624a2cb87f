"""v1 ``azureml.data.dataset_type_definitions``: the enums of the dataset factories' parameters."""

from enum import Enum

__all__ = ["FileEncoding", "FileType", "HistogramCompareMethod", "PromoteHeadersBehavior", "SkipLinesBehavior"]


class PromoteHeadersBehavior(Enum):
    """How the header row of delimited files is found."""

    NO_HEADERS = 0
    ONLY_FIRST_FILE_HAS_HEADERS = 1
    COMBINE_ALL_FILES_HEADERS = 2
    ALL_FILES_HAVE_SAME_HEADERS = 3


class SkipLinesBehavior(Enum):
    NO_ROWS = 0
    FROM_FIRST_FILE = 1
    FROM_ALL_FILES = 2


class FileEncoding(Enum):
    UTF8 = 0
    ISO88591 = 1
    LATIN1 = 2
    ASCII = 3
    UTF16 = 4
    UTF32 = 5
    UTF8BOM = 6
    WINDOWS1252 = 7


class HistogramCompareMethod(Enum):
    """v1's distance metrics of Dataset.compare_profiles (values kept; profiles are refused here)."""

    WASSERSTEIN = 0
    ENERGY = 1


class FileType(Enum):
    """Deprecated in v1 (strings replaced it); values kept."""

    GENERIC_CSV = "GenericCSV"
    GENERIC_CSV_NO_HEADER = "GenericCSVNoHeader"
    GENERIC_TSV = "GenericTSV"
    GENERIC_TSV_NO_HEADER = "GenericTSVNoHeader"
    ZIP = "Zip"
    UNKNOWN = "Unknown"


# Python codec names of v1's encodings ("utf8" and friends as v1 also took strings).
CODECS = {FileEncoding.UTF8: "utf-8", FileEncoding.ISO88591: "iso-8859-1", FileEncoding.LATIN1: "latin-1",
          FileEncoding.ASCII: "ascii", FileEncoding.UTF16: "utf-16", FileEncoding.UTF32: "utf-32",
          FileEncoding.UTF8BOM: "utf-8-sig", FileEncoding.WINDOWS1252: "cp1252"}
