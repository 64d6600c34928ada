# Lowering (issue 4): profiles, Lower/Lift, the need channel, the strict checker, the generator.
structure_add_tests(NAME lowering_tests LABEL pipeline
  SOURCES pipeline/lower_corpus_test.cc pipeline/roundtrip_test.cc pipeline/lower_rules_test.cc
    pipeline/lowering_units_test.cc
  LIBS structure_lowering structure_generate structure_validator)
