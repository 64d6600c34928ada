# Evidence: quote location, value checks, the whole-answer check.
structure_add_tests(NAME evidence_tests LABEL pipeline
  SOURCES pipeline/evidence/locate_test.cc pipeline/evidence/check_test.cc
  LIBS structure_evidence)
