/// The OpenAPI 3.1 document of the service, served at `GET /openapi.json`; `openapi.json` at the top of the
/// repository is the same text (a test compares them, and every route with the router's).
package enum OpenAPIDocument {
    package static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "uti",
    "version": "0.1.0",
    "description": "Identification of files and the Uniform Type Identifier database over HTTP (`uti serve`). Also answers Apache Tika's detector API.",
    "license": {
      "name": "Apache-2.0",
      "identifier": "Apache-2.0"
    }
  },
  "paths": {
    "/healthz": {
      "get": {
        "summary": "Whether the server runs",
        "responses": {
          "200": {
            "description": "`ok`",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                },
                "example": "ok\n"
              }
            }
          }
        }
      }
    },
    "/version": {
      "get": {
        "summary": "The server's version",
        "responses": {
          "200": {
            "description": "`uti VERSION`",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                },
                "example": "uti 0.1.0\n"
              }
            }
          }
        }
      }
    },
    "/identify": {
      "put": {
        "summary": "Identify the body",
        "parameters": [
          {
            "name": "name",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The file's name (its extension counts as evidence)."
          },
          {
            "name": "Content-Disposition",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`attachment; filename=...` or `filename*=UTF-8''...` (RFC 6266); used when there is no `name`."
          },
          {
            "name": "File-Name",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Tika's header for the name."
          },
          {
            "name": "resourceName",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Tika's other header for the name."
          },
          {
            "name": "Accept",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`text/plain` answers the MIME type alone."
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "contentMediaType": "application/octet-stream"
              }
            },
            "multipart/form-data": {
              "schema": {
                "type": "object",
                "additionalProperties": {
                  "contentMediaType": "application/octet-stream"
                }
              },
              "description": "Several files: the answer is an array, one object per part, in order."
            }
          }
        },
        "responses": {
          "200": {
            "description": "What the body is.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/Identification"
                    },
                    {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/Identification"
                      }
                    }
                  ]
                }
              },
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      },
      "post": {
        "summary": "Identify the body (as PUT)",
        "parameters": [
          {
            "name": "name",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The file's name (its extension counts as evidence)."
          },
          {
            "name": "Content-Disposition",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`attachment; filename=...` or `filename*=UTF-8''...` (RFC 6266); used when there is no `name`."
          },
          {
            "name": "File-Name",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Tika's header for the name."
          },
          {
            "name": "resourceName",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Tika's other header for the name."
          },
          {
            "name": "Accept",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`text/plain` answers the MIME type alone."
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "contentMediaType": "application/octet-stream"
              }
            },
            "multipart/form-data": {
              "schema": {
                "type": "object",
                "additionalProperties": {
                  "contentMediaType": "application/octet-stream"
                }
              },
              "description": "Several files: the answer is an array, one object per part, in order."
            }
          }
        },
        "responses": {
          "200": {
            "description": "What the body is.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/Identification"
                    },
                    {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/Identification"
                      }
                    }
                  ]
                }
              },
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/detect/stream": {
      "put": {
        "summary": "Tika's detector: the MIME type of the body",
        "parameters": [
          {
            "name": "name",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The file's name (its extension counts as evidence)."
          },
          {
            "name": "Content-Disposition",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`attachment; filename=...` or `filename*=UTF-8''...` (RFC 6266); used when there is no `name`."
          },
          {
            "name": "File-Name",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Tika's header for the name."
          },
          {
            "name": "resourceName",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Tika's other header for the name."
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "contentMediaType": "application/octet-stream"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The MIME type.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                },
                "example": "application/pdf"
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/types/{identifier}": {
      "get": {
        "summary": "One type, as `uti info --json`",
        "parameters": [
          {
            "name": "identifier",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "example": "public.png"
          }
        ],
        "responses": {
          "200": {
            "description": "The type.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Type"
                }
              }
            }
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/types": {
      "get": {
        "summary": "Types claiming a tag, conforming to a type, or matching words, as `uti types --json`",
        "parameters": [
          {
            "name": "extension",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "pattern": "^[.]?[^./\\x00]+$"
            },
            "description": "A filename extension."
          },
          {
            "name": "mime",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "pattern": "^[^\\x00]+$"
            },
            "description": "A MIME type."
          },
          {
            "name": "conformingTo",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "description": "Keep subtypes of this identifier.",
            "example": "public.image"
          },
          {
            "name": "q",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Words, separated by spaces, to find in identifiers and descriptions."
          }
        ],
        "responses": {
          "200": {
            "description": "The types, best first.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/Type"
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/conforms": {
      "get": {
        "summary": "Whether one type conforms to another",
        "parameters": [
          {
            "name": "type",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "example": "public.png"
          },
          {
            "name": "to",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "example": "public.image"
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "type",
                    "to",
                    "conforms"
                  ],
                  "properties": {
                    "type": {
                      "type": "string"
                    },
                    "to": {
                      "type": "string"
                    },
                    "conforms": {
                      "type": "boolean"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "summary": "This document",
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "summary": "Prometheus metrics: requests by route and status, latency, bytes, types identified by family",
        "responses": {
          "200": {
            "description": "The Prometheus text format.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/route": {
      "post": {
        "summary": "Deliver the body to the app that handles its type (routing must be on: --routing)",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[^/\\x00]+$",
              "maxLength": 255
            },
            "description": "The name to deliver under.",
            "example": "photo.png"
          },
          {
            "name": "to",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 255,
              "pattern": "^[A-Za-z0-9-]+(?:[.][A-Za-z0-9-]+)*[.]?$"
            },
            "description": "Deliver to this app (it must open the type).",
            "example": "com.example.viewer"
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "contentMediaType": "application/octet-stream"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Delivered.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "identifier",
                    "mimeType",
                    "handler",
                    "delivered"
                  ],
                  "properties": {
                    "identifier": {
                      "type": "string"
                    },
                    "mimeType": {
                      "type": "string"
                    },
                    "handler": {
                      "type": "string"
                    },
                    "name": {
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "delivered": {
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/apps": {
      "get": {
        "summary": "The registered apps (routing must be on)",
        "responses": {
          "200": {
            "description": "The apps, in registration order.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/App"
                  }
                }
              }
            }
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/apps/{bundleID}": {
      "get": {
        "summary": "One registered app (routing must be on)",
        "parameters": [
          {
            "name": "bundleID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "maxLength": 255,
              "pattern": "^[A-Za-z0-9-]+(?:[.][A-Za-z0-9-]+)*[.]?$"
            },
            "example": "com.example.viewer"
          }
        ],
        "responses": {
          "200": {
            "description": "The app.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/App"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/apps/{bundleID}/inbox": {
      "get": {
        "summary": "What is in an app's Documents/Inbox (routing must be on; needs the token)",
        "parameters": [
          {
            "name": "bundleID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "maxLength": 255,
              "pattern": "^[A-Za-z0-9-]+(?:[.][A-Za-z0-9-]+)*[.]?$"
            },
            "example": "com.example.viewer"
          }
        ],
        "responses": {
          "200": {
            "description": "The files, by name.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": [
                      "name",
                      "size"
                    ],
                    "properties": {
                      "name": {
                        "type": "string"
                      },
                      "size": {
                        "type": "integer"
                      }
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        },
        "security": [
          {
            "bearer": []
          }
        ]
      }
    },
    "/mime-types": {
      "get": {
        "summary": "Tika's listing of media types, with aliases and supertypes",
        "parameters": [
          {
            "name": "Accept",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`text/plain` for Tika's text listing."
          }
        ],
        "responses": {
          "200": {
            "description": "Every media type a declared type prefers.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "additionalProperties": {
                    "type": "object",
                    "required": [
                      "alias"
                    ],
                    "properties": {
                      "alias": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      },
                      "supertype": {
                        "type": "string"
                      }
                    }
                  }
                }
              },
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/mime-types/{type}/{subtype}": {
      "get": {
        "summary": "One media type's details, as Tika's server gives them",
        "parameters": [
          {
            "name": "type",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "example": "image"
          },
          {
            "name": "subtype",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "example": "png"
          }
        ],
        "responses": {
          "200": {
            "description": "The media type.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "type",
                    "alias"
                  ],
                  "properties": {
                    "type": {
                      "type": "string"
                    },
                    "alias": {
                      "type": "array",
                      "items": {
                        "type": "string"
                      }
                    },
                    "supertype": {
                      "type": "string"
                    },
                    "description": {
                      "type": "string"
                    },
                    "uniformTypeIdentifier": {
                      "type": "string"
                    },
                    "links": {
                      "type": "array",
                      "items": {
                        "type": "string"
                      }
                    },
                    "defaultExtension": {
                      "type": "string"
                    },
                    "extensions": {
                      "type": "array",
                      "items": {
                        "type": "string"
                      }
                    }
                  }
                }
              }
            }
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "Identification": {
        "type": "object",
        "description": "What `uti identify --json` prints for one file.",
        "required": [
          "path",
          "identifier",
          "mimeType",
          "conformsTo",
          "evidence",
          "confidence",
          "mismatch"
        ],
        "properties": {
          "path": {
            "type": "string",
            "description": "The name the client gave, or `-`."
          },
          "identifier": {
            "type": "string",
            "examples": [
              "public.png"
            ]
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "mimeType": {
            "type": "string"
          },
          "preferredMIMEType": {
            "type": [
              "string",
              "null"
            ]
          },
          "mimeTypes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "conformsTo": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "Every supertype, nearest first."
          },
          "evidence": {
            "type": "object",
            "required": [
              "rule",
              "name",
              "content",
              "otherReadings"
            ],
            "properties": {
              "rule": {
                "type": "string"
              },
              "name": {
                "type": [
                  "object",
                  "null"
                ],
                "properties": {
                  "match": {
                    "type": "string"
                  },
                  "tag": {
                    "type": "string"
                  },
                  "candidates": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                }
              },
              "content": {
                "oneOf": [
                  {
                    "type": "object",
                    "required": [
                      "source",
                      "identifier",
                      "conclusive",
                      "detail"
                    ],
                    "properties": {
                      "source": {
                        "type": "string",
                        "description": "signature, container, shared-mime-info, libmagic, text ..."
                      },
                      "mimeType": {
                        "type": [
                          "string",
                          "null"
                        ]
                      },
                      "identifier": {
                        "type": "string"
                      },
                      "conclusive": {
                        "type": "boolean"
                      },
                      "detail": {
                        "type": "string"
                      },
                      "score": {
                        "type": "number",
                        "description": "a model's probability for the type, 0 to 1 (source model only)"
                      }
                    }
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "otherReadings": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "source",
                    "identifier",
                    "conclusive",
                    "detail"
                  ],
                  "properties": {
                    "source": {
                      "type": "string",
                      "description": "signature, container, shared-mime-info, libmagic, text ..."
                    },
                    "mimeType": {
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "identifier": {
                      "type": "string"
                    },
                    "conclusive": {
                      "type": "boolean"
                    },
                    "detail": {
                      "type": "string"
                    },
                    "score": {
                      "type": "number",
                      "description": "a model's probability for the type, 0 to 1 (source model only)"
                    }
                  }
                }
              }
            }
          },
          "confidence": {
            "type": "string",
            "enum": [
              "low",
              "medium",
              "high",
              "certain"
            ]
          },
          "mismatch": {
            "type": "boolean"
          },
          "encoding": {
            "type": [
              "string",
              "null"
            ]
          },
          "pathEscaped": {
            "type": "boolean"
          }
        }
      },
      "Type": {
        "type": "object",
        "description": "What `uti info --json` prints for one type.",
        "required": [
          "identifier",
          "status",
          "isDeclared",
          "isDynamic",
          "isPublic",
          "tags",
          "conformsTo",
          "supertypes"
        ],
        "properties": {
          "identifier": {
            "type": "string"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "status": {
            "type": "string",
            "enum": [
              "declared",
              "dynamic",
              "undeclared"
            ]
          },
          "isDeclared": {
            "type": "boolean"
          },
          "isDynamic": {
            "type": "boolean"
          },
          "isPublic": {
            "type": "boolean"
          },
          "declaration": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "exported",
              "imported",
              null
            ]
          },
          "declaredIn": {
            "type": [
              "string",
              "null"
            ]
          },
          "preferredFilenameExtension": {
            "type": [
              "string",
              "null"
            ]
          },
          "preferredMIMEType": {
            "type": [
              "string",
              "null"
            ]
          },
          "tags": {
            "type": "object",
            "additionalProperties": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          },
          "conformsTo": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "supertypes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "referenceURL": {
            "type": [
              "string",
              "null"
            ]
          },
          "version": {
            "type": [
              "integer",
              "null"
            ]
          }
        }
      },
      "Problem": {
        "type": "object",
        "description": "An error (RFC 9457).",
        "required": [
          "type",
          "title",
          "status"
        ],
        "properties": {
          "type": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "status": {
            "type": "integer"
          },
          "detail": {
            "type": "string"
          }
        }
      },
      "App": {
        "type": "object",
        "description": "What `uti apps show --json` prints.",
        "required": [
          "bundleIdentifier",
          "name",
          "container",
          "documentTypes",
          "declaredTypes"
        ],
        "properties": {
          "bundleIdentifier": {
            "type": "string"
          },
          "name": {
            "type": "string"
          },
          "container": {
            "type": "string"
          },
          "supportsOpeningDocumentsInPlace": {
            "type": "boolean"
          },
          "fileSharingEnabled": {
            "type": "boolean"
          },
          "documentTypes": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "name": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "contentTypes": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                },
                "role": {
                  "type": "string"
                },
                "rank": {
                  "type": "string"
                }
              }
            }
          },
          "declaredTypes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        }
      }
    },
    "responses": {
      "Problem": {
        "description": "An error, as a problem document.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      }
    },
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "The token in the file given to --token-file."
      }
    }
  }
}

"""#
}
