"""Unit tests of the type database's generator (TypeDB/tools/typedb), standard library only:

    python3 -m unittest discover -s TypeDB/tools/tests -t TypeDB/tools
"""
