"""v1 ``azureml.data.constants``: datastore types, credential types, access modes and well-known names (v1's values)."""

AZURE_BLOB, AZURE_FILE = "AzureBlob", "AzureFile"
AZURE_DATA_LAKE, AZURE_DATA_LAKE_GEN2 = "AzureDataLake", "AzureDataLakeGen2"
AZURE_SQL_DATABASE, AZURE_POSTGRESQL, AZURE_MYSQL = "AzureSqlDatabase", "AzurePostgreSql", "AzureMySql"
DBFS, HDFS, CUSTOM, GIT, ONE_LAKE = "DBFS", "Hdfs", "Custom", "Git", "OneLake"
ACCOUNT_KEY, SAS, CLIENT_CREDENTIALS, NONE = "AccountKey", "Sas", "ClientCredentials", "None"
SQL_AUTHENTICATION, SERVICE_PRINCIPAL = "SqlAuthentication", "ServicePrincipal"
MANAGED_DATASET = "managed-dataset"
STORAGE_RESOURCE_URI, ADLS_RESOURCE_URI = "https://storage.azure.com/", "https://datalake.azure.net/"
WORKSPACE_BLOB_DATASTORE, WORKSPACE_FILE_DATASTORE = "workspaceblobstore", "workspacefilestore"
# Azure built-in role ids (Reader, Storage Blob Data Reader): public, the same in every tenant.
ROLE_ID_OF_READER = "acdd72a7-3385-48ef-bd42-f606fba81ae7"
ROLE_ID_OF_STORAGE_BLOB_DATA_READER = "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1"
CONFLICT_MESSAGE = "Another datastore with the same name already exists"
UPLOAD_MODE, DOWNLOAD_MODE, MOUNT_MODE = "upload", "download", "mount"
DIRECT_MODE, HDFS_MODE, LINK_MODE = "direct", "hdfs", "link"

__all__ = ["ACCOUNT_KEY", "ADLS_RESOURCE_URI", "AZURE_BLOB", "AZURE_DATA_LAKE", "AZURE_DATA_LAKE_GEN2", "AZURE_FILE",
           "AZURE_MYSQL", "AZURE_POSTGRESQL", "AZURE_SQL_DATABASE", "CLIENT_CREDENTIALS", "CONFLICT_MESSAGE", "CUSTOM",
           "DBFS", "DIRECT_MODE", "DOWNLOAD_MODE", "GIT", "HDFS", "HDFS_MODE", "LINK_MODE", "MANAGED_DATASET",
           "MOUNT_MODE", "NONE", "ONE_LAKE", "ROLE_ID_OF_READER", "ROLE_ID_OF_STORAGE_BLOB_DATA_READER", "SAS",
           "SERVICE_PRINCIPAL", "SQL_AUTHENTICATION", "STORAGE_RESOURCE_URI", "UPLOAD_MODE", "WORKSPACE_BLOB_DATASTORE",
           "WORKSPACE_FILE_DATASTORE"]
