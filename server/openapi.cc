#include "server/openapi.h"

namespace structure::server {
namespace {

constexpr const char* kDocument = R"JSON({
  "openapi": "3.1.0",
  "info": {
    "title": "structure HTTP API",
    "version": "1",
    "description": "Turns free text into one JSON object that validates against a JSON Schema (Draft 2020-12). Calls under /v1 need an API key (Authorization: Bearer KEY or X-API-Key: KEY); the key decides the tenant and the projects it may use."
  },
  "components": {
    "securitySchemes": {
      "bearer": {"type": "http", "scheme": "bearer"},
      "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    },
    "parameters": {
      "project": {"name": "project", "in": "query", "required": false, "schema": {"type": "string"},
                  "description": "Project scope; must be one of the key's projects. Absent = the tenant level."},
      "name": {"name": "name", "in": "path", "required": true,
               "schema": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,63}$"}}
    },
    "schemas": {
      "Health": {
        "type": "object",
        "required": ["status"],
        "properties": {
          "status": {"enum": ["ok", "ready", "degraded"]},
          "reasons": {"type": "array", "items": {"type": "string"}}
        }
      },
      "Error": {
        "type": "object",
        "required": ["status", "code", "errors"],
        "properties": {
          "status": {"const": "error"},
          "code": {"type": "string"},
          "errors": {"type": "array", "items": {"type": "string"}}
        }
      },
      "StructureRequest": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "prompt": {"type": "string", "description": "Free-form input text to be structured; required unless files are attached."},
          "schema": {"oneOf": [{"type": "object"}, {"type": "boolean"}, {"type": "string"}],
                     "description": "Inline JSON Schema, or a registry name (schemaMode named) or a description (schemaMode text)."},
          "schemaName": {"type": "string"},
          "schemaText": {"type": "string"},
          "schemaMode": {"type": "string", "enum": ["json", "named", "text"], "default": "json"},
          "maxLoops": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
          "tenant": {"type": "string", "description": "Optional; must equal the key's tenant."},
          "project": {"type": "string"},
          "model": {"type": "string"},
          "tokenBudget": {"type": "integer", "minimum": 0},
          "callTimeoutMs": {"type": "integer", "minimum": 1, "maximum": 86400000, "default": 300000,
                            "description": "The call's whole time, every retry and re-ask included; then deadline_exceeded."},
          "confidenceThreshold": {"type": "number", "minimum": 0, "maximum": 1,
                                  "description": "Overrides the tenant/project setting for this request."},
          "requireProviderStrictOutput": {"type": "boolean",
                                          "description": "Overrides the tenant/project setting for this request."},
          "priority": {"type": "string", "enum": ["interactive", "bulk"]},
          "finalTool": {"type": "boolean"},
          "arrayMode": {"type": "boolean"},
          "evidence": {"type": "string", "enum": ["off", "report", "require"], "default": "off"},
          "metadata": {},
          "id": {},
          "trace": {"type": "boolean", "default": false, "description": "Return every round of the content loop in the result's trace."},
          "files": {"type": "array", "maxItems": 20, "description": "Attached files (PDF, PNG, JPEG, WebP, GIF, UTF-8 text), sent to the model in the provider's own part; the media type is told from the bytes.",
                    "items": {"type": "object", "additionalProperties": false, "properties": {
                      "data": {"type": "string", "description": "The bytes in base64, or a base64 data URL."},
                      "url": {"type": "string", "description": "A base64 data URL; other URLs are refused (nothing is fetched)."},
                      "mediaType": {"type": "string", "description": "Checked against the bytes when given."},
                      "name": {"type": "string", "description": "The file name: shown to the model for PDFs, named in errors and evidence."}}}},
          "filesAs": {"type": "string", "enum": ["native", "text"], "default": "native", "description": "text: send each PDF as its text layer."}
        }
      },
      "StructureResult": {
        "type": "object",
        "required": ["status", "schemaOrigin", "iterations"],
        "properties": {
          "status": {"type": "string", "enum": ["ok", "need-more-input", "stale", "error"]},
          "data": {"description": "The validated JSON, iff status is ok."},
          "need": {"type": "string", "description": "What is missing, iff status is need-more-input."},
          "errors": {"type": "array", "items": {"type": "string"}},
          "code": {"type": "string", "description": "Stable error code, iff status is error."},
          "schemaOrigin": {"type": "string"},
          "iterations": {"type": "integer"},
          "usage": {"type": "object", "properties": {"inputTokens": {"type": "integer"}, "outputTokens": {"type": "integer"}, "cachedInputTokens": {"type": "integer", "description": "Prompt tokens read from the provider's prompt cache (part of inputTokens)."}, "cacheWriteTokens": {"type": "integer", "description": "Prompt tokens written to the provider's prompt cache (part of inputTokens)."}, "reasoningTokens": {"type": "integer", "description": "Part of outputTokens spent thinking, where the provider reports it."}, "reasoningTokensUnreported": {"type": "boolean", "description": "Present (true) when a call thought but its provider reported no count of it: reasoningTokens is then a lower bound."}}},
          "mode": {"type": "string"},
          "formIgnored": {"type": "boolean", "description": "ok only: the answer skipped the form the provider was given but fits the schema."},
          "truncated": {"type": "boolean", "description": "ok, arrayMode only: the answer was cut off at the output cap; data holds its complete records."},
          "completeRecords": {"type": "integer", "description": "With truncated: how many records data holds."},
          "tokenBudgetExhausted": {"type": "boolean", "description": "stale only: the token budget ended the loop."},
          "evidence": {"type": "object", "description": "evidence report|require: JSON pointer -> {quote, byteStart, byteEnd, cpStart, cpEnd, match, kind}; a quote in an attached file adds file and page (offsets within that page); one that no text can check is {quote, match: unchecked, kind: image|scan, file}."},
          "notes": {"type": "array", "items": {"type": "string"}, "description": "What was done with the input that the caller should know (a PDF sent as its text layer)."},
          "ungrounded": {"type": "array", "items": {"type": "string"}, "description": "evidence report|require: pointers of values no quote of the input supports."},
          "trace": {"type": "object", "description": "trace: true only: {provider, model, rounds: [{iteration, nudge?, model, mode, schema, system, answer, toolCalls, finish, usage, error?, verdict, issues: [{pointer, keyword, message}], reason?}]}."}
        }
      },
      "OpenAIError": {
        "type": "object",
        "required": ["error"],
        "properties": {
          "error": {
            "type": "object",
            "required": ["message", "type"],
            "properties": {
              "message": {"type": "string"},
              "type": {"type": "string", "description": "invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error, server_error, ..."},
              "param": {"type": ["string", "null"], "description": "The request field at fault, e.g. messages[2].content[0] or response_format.json_schema.schema."},
              "code": {"type": ["string", "null"], "description": "e.g. model_not_found, structure_stale, structure_need_more_input, structured_output_required."}
            }
          }
        }
      },
      "ChatCompletionRequest": {
        "type": "object",
        "required": ["model", "messages"],
        "description": "OpenAI Chat Completions, structured output only: a json_schema or json_object response_format, a tool forced by tool_choice, or structure.schemaName. Fields OpenAI takes that change nothing here (stop, metadata, frequency_penalty, ...) are checked for their type and ignored; n > 1, logprobs, audio output, image, audio or file parts and unknown fields are a 400 naming the field.",
        "properties": {
          "model": {"type": "string", "description": "An alias (default:fast), PROVIDER/MODEL, PROVIDER alone, or a model one configured provider lists; or schema:NAME[@MAJOR.MINOR], a registry schema whose structure call runs whatever response_format says; GET /v1/models lists them."},
          "messages": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["role"], "properties": {"role": {"type": "string", "enum": ["system", "developer", "user", "assistant", "tool"]}, "content": {"oneOf": [{"type": "string"}, {"type": "array"}, {"type": "null"}]}, "name": {"type": "string"}}}, "description": "system and developer messages become the manual; user and assistant turns the prompt, in order. At least one user turn."},
          "response_format": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "enum": ["json_schema", "json_object", "text"]}, "json_schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "schema": {"type": ["object", "boolean"]}, "strict": {"type": ["boolean", "null"]}, "description": {"type": "string"}}}}},
          "tools": {"type": "array", "items": {"type": "object", "required": ["type", "function"], "properties": {"type": {"const": "function"}, "function": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "description": {"type": "string"}, "parameters": {"type": "object"}, "strict": {"type": ["boolean", "null"]}}}}}},
          "tool_choice": {"description": "Must force one function of tools ({type: function, function: {name}}, or required with one tool): the answer is that call's arguments."},
          "stream": {"type": ["boolean", "null"], "description": "text/event-stream: the validated answer whole in one delta, then finish_reason (and usage with stream_options.include_usage), then [DONE]; keep-alive comments while re-asks run."},
          "stream_options": {"type": ["object", "null"], "properties": {"include_usage": {"type": "boolean"}}},
          "max_tokens": {"type": ["integer", "null"], "minimum": 1},
          "max_completion_tokens": {"type": ["integer", "null"], "minimum": 1},
          "temperature": {"type": ["number", "null"], "minimum": 0, "maximum": 2},
          "top_p": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
          "seed": {"type": ["integer", "null"]},
          "reasoning_effort": {"type": ["string", "null"], "enum": ["none", "minimal", "low", "medium", "high", "xhigh", null]},
          "user": {"type": "string"},
          "n": {"type": ["integer", "null"], "const": 1},
          "structure": {
            "type": "object",
            "additionalProperties": false,
            "description": "Optional extension: how the structure call runs.",
            "properties": {
              "maxLoops": {"type": "integer", "minimum": 1, "maximum": 10},
              "evidence": {"type": "string", "enum": ["off", "report", "require"]},
              "schemaName": {"type": "string", "description": "A registry schema instead of response_format's."},
              "tenant": {"type": "string", "description": "Must equal the key's tenant."},
              "project": {"type": "string", "description": "One of the key's projects."},
              "need": {"type": "string", "enum": ["refusal", "error"], "default": "refusal", "description": "need-more-input as message.refusal (content null), or as a 422 error."}
            }
          }
        }
      },
      "ResponsesRequest": {
        "type": "object",
        "required": ["model", "input"],
        "properties": {
          "model": {"type": "string"},
          "input": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}], "description": "A string, or message, function_call and function_call_output items in order (input_text parts only)."},
          "instructions": {"type": "string"},
          "text": {"type": "object", "properties": {"format": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "enum": ["json_schema", "json_object", "text"]}, "name": {"type": "string"}, "schema": {"type": ["object", "boolean"]}, "strict": {"type": ["boolean", "null"]}}}}},
          "tools": {"type": "array", "items": {"type": "object", "required": ["type", "name"], "properties": {"type": {"const": "function"}, "name": {"type": "string"}, "parameters": {"type": "object"}}}},
          "tool_choice": {},
          "stream": {"type": ["boolean", "null"]},
          "max_output_tokens": {"type": ["integer", "null"], "minimum": 1},
          "temperature": {"type": ["number", "null"], "minimum": 0, "maximum": 2},
          "top_p": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
          "reasoning": {"type": ["object", "null"], "properties": {"effort": {"type": "string"}}},
          "user": {"type": "string"},
          "structure": {"$ref": "#/components/schemas/ChatCompletionRequest/properties/structure"}
        }
      },
      "ChatCompletion": {
        "type": "object",
        "required": ["id", "object", "created", "model", "choices"],
        "properties": {
          "id": {"type": "string"},
          "object": {"const": "chat.completion"},
          "created": {"type": "integer"},
          "model": {"type": "string"},
          "choices": {"type": "array", "items": {"type": "object", "properties": {"index": {"type": "integer"}, "finish_reason": {"type": "string", "enum": ["stop", "tool_calls"]}, "message": {"type": "object", "properties": {"role": {"const": "assistant"}, "content": {"type": ["string", "null"], "description": "The validated JSON text."}, "refusal": {"type": ["string", "null"], "description": "need-more-input: what the input lacks."}, "tool_calls": {"type": "array"}}}}}},
          "usage": {"type": "object", "description": "Every call of the request summed (re-asks and the schema builder included).", "properties": {"prompt_tokens": {"type": "integer"}, "completion_tokens": {"type": "integer"}, "total_tokens": {"type": "integer"}, "prompt_tokens_details": {"type": "object", "properties": {"cached_tokens": {"type": "integer"}}}, "completion_tokens_details": {"type": "object", "properties": {"reasoning_tokens": {"type": "integer"}}}}},
          "structure": {"type": "object", "description": "Ignored by the SDKs.", "properties": {"status": {"type": "string", "enum": ["ok", "need-more-input"]}, "iterations": {"type": "integer"}, "schemaOrigin": {"type": "string"}, "need": {"type": "string"}, "evidence": {"type": "object"}, "ungrounded": {"type": "array", "items": {"type": "string"}}}}
        }
      },
      "SchemaPut": {
        "type": "object",
        "required": ["schema"],
        "additionalProperties": false,
        "properties": {
          "schema": {"type": ["object", "boolean"]},
          "version": {"type": "string", "pattern": "^[0-9]+\\.[0-9]+$"},
          "manual": {"type": "string"}
        }
      },
      "SchemaEntry": {
        "type": "object",
        "required": ["name", "version", "origin", "updatedAtMs"],
        "properties": {
          "name": {"type": "string"},
          "version": {"type": "string"},
          "origin": {"type": "string"},
          "updatedAtMs": {"type": "integer"},
          "schema": {"type": ["object", "boolean"]},
          "manual": {"type": "string"},
          "shadows": {"type": "array", "items": {"type": "string"}}
        }
      }
    },
    "responses": {
      "Error": {"description": "An error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "OpenAIError": {"description": "An error in the OpenAI shape", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OpenAIError"}}}}
    }
  },
  "security": [{"bearer": []}, {"apiKey": []}],
  "paths": {
    "/v1/structure": {
      "post": {
        "summary": "Structure a prompt against a schema",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureRequest"}}}},
        "responses": {
          "200": {"description": "ok, need-more-input or stale", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}},
          "400": {"$ref": "#/components/responses/Error"},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"description": "the key may not use the tenant or project (an Error), or provider_quota_exhausted: the server's provider account has no quota or credit left (a StructureResult; not retried)", "content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/Error"}, {"$ref": "#/components/schemas/StructureResult"}]}}}},
          "404": {"description": "unknown schema name", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}},
          "405": {"$ref": "#/components/responses/Error"},
          "413": {"$ref": "#/components/responses/Error"},
          "422": {"description": "refusal, safety block or no final answer", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}},
          "429": {"description": "server busy or provider rate limited", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}},
          "500": {"$ref": "#/components/responses/Error"},
          "502": {"description": "provider failure (failed_precondition: the provider's TLS certificate was not accepted)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}},
          "503": {"description": "cancelled (shutting down)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}},
          "504": {"description": "deadline exceeded", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StructureResult"}}}}
        }
      }
    },
    "/v1/chat/completions": {
      "post": {
        "summary": "OpenAI Chat Completions, structured: the whole schema checked locally and re-asked until it passes (point an OpenAI SDK's base URL at /v1)",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChatCompletionRequest"}}}},
        "responses": {
          "200": {"description": "the validated answer, or need-more-input as the message's refusal", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChatCompletion"}}, "text/event-stream": {"schema": {"type": "string", "description": "chat.completion.chunk events, then data: [DONE]"}}}},
          "400": {"$ref": "#/components/responses/OpenAIError"},
          "401": {"$ref": "#/components/responses/OpenAIError"},
          "403": {"$ref": "#/components/responses/OpenAIError"},
          "404": {"$ref": "#/components/responses/OpenAIError"},
          "413": {"$ref": "#/components/responses/OpenAIError"},
          "422": {"description": "structure_stale, or structure_need_more_input with structure.need = error; a refusal or safety block", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OpenAIError"}}}},
          "429": {"description": "server busy or provider rate limited (Retry-After)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OpenAIError"}}}},
          "500": {"$ref": "#/components/responses/OpenAIError"},
          "502": {"$ref": "#/components/responses/OpenAIError"},
          "503": {"$ref": "#/components/responses/OpenAIError"},
          "504": {"$ref": "#/components/responses/OpenAIError"}
        }
      }
    },
    "/v1/responses": {
      "post": {
        "summary": "OpenAI's Responses API, structured: the same call as /v1/chat/completions (input, instructions, text.format or a forced function tool; previous_response_id is refused: nothing is stored)",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResponsesRequest"}}}},
        "responses": {
          "200": {"description": "a response whose one output item holds the validated JSON as output_text, the need as a refusal part, or the forced function's call", "content": {"application/json": {"schema": {"type": "object", "required": ["id", "object", "status", "output"], "properties": {"id": {"type": "string"}, "object": {"const": "response"}, "status": {"const": "completed"}, "output": {"type": "array"}, "usage": {"type": "object"}, "structure": {"type": "object"}}}}, "text/event-stream": {"schema": {"type": "string", "description": "response.created ... response.completed events"}}}},
          "400": {"$ref": "#/components/responses/OpenAIError"},
          "401": {"$ref": "#/components/responses/OpenAIError"},
          "403": {"$ref": "#/components/responses/OpenAIError"},
          "404": {"$ref": "#/components/responses/OpenAIError"},
          "413": {"$ref": "#/components/responses/OpenAIError"},
          "422": {"$ref": "#/components/responses/OpenAIError"},
          "429": {"$ref": "#/components/responses/OpenAIError"},
          "500": {"$ref": "#/components/responses/OpenAIError"},
          "502": {"$ref": "#/components/responses/OpenAIError"},
          "503": {"$ref": "#/components/responses/OpenAIError"},
          "504": {"$ref": "#/components/responses/OpenAIError"}
        }
      }
    },
    "/v1/models": {
      "get": {
        "summary": "The aliases, PROVIDER/MODEL names and unambiguous bare model names, and schema:NAME for the registry schemas of the key's tenant (and ?project=), in the OpenAI list shape",
        "responses": {
          "200": {"description": "the list", "content": {"application/json": {"schema": {"type": "object", "required": ["object", "data"], "properties": {"object": {"const": "list"}, "data": {"type": "array", "items": {"type": "object", "required": ["id", "object", "created", "owned_by"], "properties": {"id": {"type": "string"}, "object": {"const": "model"}, "created": {"type": "integer"}, "owned_by": {"type": "string"}}}}}}}}},
          "401": {"$ref": "#/components/responses/OpenAIError"}
        }
      }
    },
    "/v1/models/{id}": {
      "get": {
        "summary": "The id resolved as a request's model is (an alias, PROVIDER/MODEL, a bare model name, schema:NAME[@MAJOR.MINOR]; the id may be percent-encoded: simulator%2Fsim-1)",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {
          "200": {"description": "the model", "content": {"application/json": {"schema": {"type": "object", "required": ["id", "object", "created", "owned_by"], "properties": {"id": {"type": "string"}, "object": {"const": "model"}, "created": {"type": "integer"}, "owned_by": {"type": "string"}}}}}},
          "401": {"$ref": "#/components/responses/OpenAIError"},
          "404": {"$ref": "#/components/responses/OpenAIError"}
        }
      }
    },
    "/v1/schemas": {
      "get": {
        "summary": "Schemas visible in the scope (bundled, tenant, project)",
        "parameters": [{"$ref": "#/components/parameters/project"}],
        "responses": {
          "200": {"description": "the list", "content": {"application/json": {"schema": {"type": "object", "properties": {"schemas": {"type": "array", "items": {"$ref": "#/components/schemas/SchemaEntry"}}}}}}},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"$ref": "#/components/responses/Error"}
        }
      }
    },
    "/v1/schemas/{name}": {
      "parameters": [{"$ref": "#/components/parameters/name"}, {"$ref": "#/components/parameters/project"}],
      "get": {
        "summary": "The effective schema (project, then tenant, then bundled), or ?level=exact for the scope's own entry",
        "parameters": [{"name": "level", "in": "query", "required": false, "schema": {"type": "string", "enum": ["effective", "exact"]}}],
        "responses": {
          "200": {"description": "the entry", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SchemaEntry"}}}},
          "400": {"$ref": "#/components/responses/Error"},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"$ref": "#/components/responses/Error"},
          "404": {"$ref": "#/components/responses/Error"}
        }
      },
      "put": {
        "summary": "Store a tenant (no project) or project override",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SchemaPut"}}}},
        "responses": {
          "200": {"description": "stored", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SchemaEntry"}}}},
          "400": {"$ref": "#/components/responses/Error"},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"$ref": "#/components/responses/Error"},
          "413": {"$ref": "#/components/responses/Error"}
        }
      },
      "delete": {
        "summary": "Remove the entry stored at exactly this scope",
        "responses": {
          "204": {"description": "removed"},
          "400": {"$ref": "#/components/responses/Error"},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"$ref": "#/components/responses/Error"},
          "404": {"$ref": "#/components/responses/Error"}
        }
      }
    },
    "/v1/schemas/{name}/versions": {
      "parameters": [{"$ref": "#/components/parameters/name"}, {"$ref": "#/components/parameters/project"}],
      "get": {
        "summary": "Every version put at exactly this scope, newest first (the last 50); the bundled file for a name only bundled",
        "responses": {
          "200": {"description": "the versions", "content": {"application/json": {"schema": {"type": "object", "properties": {"versions": {"type": "array", "items": {"$ref": "#/components/schemas/SchemaEntry"}}}}}}},
          "400": {"$ref": "#/components/responses/Error"},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"$ref": "#/components/responses/Error"}
        }
      }
    },
    "/v1/schemas/{name}/check": {
      "parameters": [{"$ref": "#/components/parameters/name"}, {"$ref": "#/components/parameters/project"}],
      "post": {
        "summary": "What a PUT of this body would answer, without storing it: the validator, the version and compatibility rules, and how each configured provider would be asked",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SchemaPut"}}}},
        "responses": {
          "200": {"description": "the report", "content": {"application/json": {"schema": {"type": "object", "required": ["accepted", "validator", "compatibility", "providers"], "properties": {"accepted": {"type": "boolean"}, "problem": {"type": "string"}, "validator": {"type": "object"}, "compatibility": {"type": "object"}, "providers": {"type": "array"}}}}}},
          "400": {"$ref": "#/components/responses/Error"},
          "401": {"$ref": "#/components/responses/Error"},
          "403": {"$ref": "#/components/responses/Error"},
          "413": {"$ref": "#/components/responses/Error"}
        }
      }
    },
    "/v1/console/info": {
      "get": {"summary": "The web console: the key's tenant and projects, models, prices, limits and defaults (no secret)", "responses": {"200": {"description": "info", "content": {"application/json": {"schema": {"type": "object"}}}}, "401": {"$ref": "#/components/responses/Error"}}}
    },
    "/v1/console/stats": {
      "get": {"summary": "The web console: per-schema counts of the key's tenant's calls since the server started", "responses": {"200": {"description": "stats", "content": {"application/json": {"schema": {"type": "object"}}}}, "401": {"$ref": "#/components/responses/Error"}}}
    },
    "/v1/console/calls": {
      "get": {
        "summary": "The web console: the key's tenant's recent calls, newest first",
        "parameters": [{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1}}, {"name": "schema", "in": "query", "required": false, "schema": {"type": "string"}}, {"name": "evidence", "in": "query", "required": false, "schema": {"const": "1"}}],
        "responses": {"200": {"description": "calls", "content": {"application/json": {"schema": {"type": "object"}}}}, "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Error"}}
      }
    },
    "/v1/console/calls/{id}": {
      "get": {
        "summary": "The web console: one recent call, with its prompt and result when the server keeps prompts",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "the call", "content": {"application/json": {"schema": {"type": "object"}}}}, "401": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}}
      }
    },
    "/ui/": {
      "get": {"summary": "The web console (HTML); /ui redirects here", "security": [], "responses": {"200": {"description": "the page", "content": {"text/html": {"schema": {"type": "string"}}}}}}
    },
    "/healthz": {
      "get": {"summary": "Liveness; degraded (with reasons) while a shared database is unreachable", "security": [], "responses": {"200": {"description": "alive", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}}}}
    },
    "/readyz": {
      "get": {"summary": "Readiness; degraded (with reasons) while a shared database is unreachable", "security": [], "responses": {"200": {"description": "ready", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}}}}
    },
    "/metrics": {
      "get": {"summary": "Prometheus text format metrics", "security": [], "responses": {"200": {"description": "metrics", "content": {"text/plain": {"schema": {"type": "string"}}}}}}
    },
    "/v1/openapi.json": {
      "get": {"summary": "This document", "security": [], "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}}}}
    }
  }
})JSON";

}  // namespace

Json OpenApiDocument() {
  static const Json* doc = [] {
    auto parsed = ParseJson(kDocument);
    return new Json(parsed.ok() ? std::move(*parsed) : Json::MakeObject());
  }();
  return *doc;
}

}  // namespace structure::server
