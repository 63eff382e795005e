import TributaryCLI

await TributaryMain.run()
