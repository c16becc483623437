fn main() {
    lola_claude_code::main()
}
