"""v1 ``azureml.data.datastore_client``: the datastore classes and constants it re-exported."""

from acpt_estimator.exceptions import UserErrorException  # noqa: F401
from acpt_estimator.v1.data.abstract_datastore import AbstractDatastore  # noqa: F401
from acpt_estimator.v1.data.azure_data_lake_datastore import (  # noqa: F401
    AzureDataLakeDatastore, AzureDataLakeGen2Datastore)
from acpt_estimator.v1.data.azure_my_sql_datastore import AzureMySqlDatastore  # noqa: F401
from acpt_estimator.v1.data.azure_postgre_sql_datastore import AzurePostgreSqlDatastore  # noqa: F401
from acpt_estimator.v1.data.azure_sql_database_datastore import AzureSqlDatabaseDatastore  # noqa: F401
from acpt_estimator.v1.data.azure_storage_datastore import AzureBlobDatastore, AzureFileDatastore  # noqa: F401
from acpt_estimator.v1.data.constants import (  # noqa: F401
    CONFLICT_MESSAGE, ROLE_ID_OF_READER, ROLE_ID_OF_STORAGE_BLOB_DATA_READER)
from acpt_estimator.v1.data.dbfs_datastore import DBFSDatastore  # noqa: F401
from acpt_estimator.v1.data.hdfs_datastore import HDFSDatastore  # noqa: F401

__all__ = ["AbstractDatastore", "AzureBlobDatastore", "AzureDataLakeDatastore", "AzureDataLakeGen2Datastore",
           "AzureFileDatastore", "AzureMySqlDatastore", "AzurePostgreSqlDatastore", "AzureSqlDatabaseDatastore",
           "CONFLICT_MESSAGE", "DBFSDatastore", "HDFSDatastore", "ROLE_ID_OF_READER",
           "ROLE_ID_OF_STORAGE_BLOB_DATA_READER", "UserErrorException"]
