fn main() {
    lola_copilot_cli::main()
}
