# Files as input (PDFs, images, text): the PDF text layer, media types and limits, the JSON
# forms, evidence on pages, and each provider's file parts checked against its published schema.
structure_add_tests(NAME files_tests LABEL pipeline
  SOURCES files/pdf_text_test.cc files/input_files_test.cc files/file_wire_test.cc
    files/file_evidence_test.cc providers/request_schema_check.cc
  LIBS structure_content)
structure_add_tests(NAME files_end_to_end_tests LABEL apps USES_BINARY COST 30
  SOURCES files/files_end_to_end_test.cc
  LIBS structure_files CURL::libcurl)
