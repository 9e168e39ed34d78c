from kopipasta.cli import main

main()
