extension Toolchain {
    /// objdump for x86 programs: the host's own on x86_64, the cross one elsewhere.
    package func objdump(purpose: String) throws(ToolError) -> String {
        let names = host.runsX86_64 ? ["objdump", "x86_64-linux-gnu-objdump"] : ["x86_64-linux-gnu-objdump", "objdump"]
        guard let path = locator.find(anyOf: names) else {
            throw ToolError(tool: "objdump", packages: [host.runsX86_64 ? "binutils" : "binutils-x86-64-linux-gnu"], purpose: purpose)
        }
        return path
    }
}
