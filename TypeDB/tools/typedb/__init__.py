"""The generator of uti's type database (TypeDB/), run by make-typedb.py beside this package.

One module per source or job, in the order generate.py runs them:
  paths          where the repository, its sources and the generated files are
  model          TypeDecl and TypeDB, and the tag classes of uti's own
  curation       the curated tables (TypeDB/sources/curated/), the curated declarations and tags
  apple          step 1: Apple's types
  freedesktop    step 2: shared-mime-info's types mapped onto types, their tags
  tika_import    Apache Tika's MIME database as a shared-mime-info package (TypeDB/apache-tika.xml)
  tika           Tika's names joined to the database
  hierarchy      steps 3, 5 and 6: conformance and kinds, families and tag preference, validation
  libmagic       step 4: libmagic's MIME strings
  names          how names of languages are compared and spelled
  linguist       step 4b: GitHub Linguist's languages and heuristics
  rubyregex      Linguist's Ruby patterns in PCRE2's syntax, and the literals they need
  magika         Google Magika's labels and MIME names
  output         the plists, TypeDB/mime/ (step 7), the summary, the C tables mediatypes.c and languages.c
  sharedmimeinfo a compiler of shared-mime-info packages (also a command of its own)
  vocabularies   step 8: the vocabularies of each MIME name, the extensions whose name settles no format
  generate       the steps in order, then install or compare (`run`)
Importing the package imports none of them; importing one that uses the curated tables reads them.
"""
