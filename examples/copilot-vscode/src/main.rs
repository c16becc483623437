fn main() {
    lola_copilot_vscode::main()
}
