import Foundation
import SwiftUI

/// Where a profile comes from.
protocol ProfileLoading {
    func loadProfile(id: UUID) async throws -> Profile
    var isOffline: Bool { get }
}

struct Profile: Codable, Identifiable, Hashable {
    let id: UUID
    var name: String
    var bio: String

    static let placeholder = Profile(id: UUID(), name: "…", bio: "")

    var initials: String {
        name.split(separator: " ").compactMap(\.first).map(String.init).joined()
    }
}

enum LoadState<Value> {
    case idle
    case loading
    case loaded(Value)
    case failed(Error)

    var value: Value? {
        if case let .loaded(value) = self {
            return value
        }
        return nil
    }
}

@MainActor
final class ProfileViewModel: ObservableObject {
    @Published private(set) var state: LoadState<Profile> = .idle

    private let loader: ProfileLoading
    private let id: UUID

    init(loader: ProfileLoading, id: UUID) {
        self.loader = loader
        self.id = id
    }

    convenience init(id: UUID) {
        self.init(loader: NetworkProfileLoader(), id: id)
    }

    func load() async {
        state = .loading
        do {
            state = .loaded(try await loader.loadProfile(id: id))
        } catch {
            state = .failed(error)
        }
    }

    deinit {
        print("ProfileViewModel gone")
    }
}

struct ProfileScreen: View {
    @StateObject var model: ProfileViewModel
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        Group {
            switch model.state {
            case .idle, .loading:
                ProgressView()
            case .loaded(let profile):
                ProfileCard(profile: profile)
            case .failed(let error):
                Text(error.localizedDescription)
                    .foregroundStyle(.red)
            }
        }
        .task { await model.load() }
        .toolbar {
            Button("Done") { dismiss() }
        }
    }
}

struct ProfileCard: View {
    let profile: Profile

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(profile.name).font(.title)
            Text(profile.bio)
        }
        .padding()
    }
}

extension Profile {
    static let about = """
        Profiles are loaded from the network
        and cached for a day.
        """

    func matches(_ query: String) -> Bool {
        name.localizedCaseInsensitiveContains(query)
    }
}

struct NetworkProfileLoader: ProfileLoading {
    var isOffline: Bool { false }

    func loadProfile(id: UUID) async throws -> Profile {
        let url = URL(string: "https://api.example.com/profiles/\(id)")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(Profile.self, from: data)
    }
}

typealias ProfileID = UUID

func greeting(for profile: Profile) -> String {
    "Hello, \(profile.name)!"
}
